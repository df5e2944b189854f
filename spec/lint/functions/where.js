// Names a place in openapi.yaml for a lint message, from its JSON path: `PUT /pets/{petId}`,
// `GET /pets response 200`, `components.parameters.Limit`, `parameter petId of GET /pets/{petId}`.
// Imported by the rule functions beside it (Spectral bundles them).

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** `METHOD /path` of the operation a JSON path is in, or undefined outside operations. */
export function operationOf(path) {
  if (path[0] !== 'paths' || !METHODS.has(String(path[2]))) return undefined;
  return `${String(path[2]).toUpperCase()} ${String(path[1])}`;
}

/** `name`: what the target calls itself (a parameter's name), where the path has only an index. */
export function where(path, name) {
  const operation = operationOf(path);
  if (!operation) {
    if (path[0] === 'paths') return `parameter ${name ?? String(path[3])} of path ${String(path[1])}`;
    return path.map(String).join('.');
  }
  const rest = path.slice(3).map(String);
  if (rest[0] === 'responses') return `${operation} response ${rest[1]}${rest[2] === 'headers' ? ` header ${rest[3]}` : ''}`;
  if (rest[0] === 'parameters') return `parameter ${name ?? rest[1]} of ${operation}`;
  if (rest[0] === 'requestBody') return `the request body of ${operation}`;
  return operation;
}
