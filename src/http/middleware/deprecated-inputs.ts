import type { Request, RequestHandler } from 'express';
import type { Contract } from '../../contract/contract.js';
import type { DeprecatedInput } from '../../contract/deprecated-inputs.js';
import type { Logger } from '../../log/logger.js';
import { deprecationValue } from './deprecation.js';

function used(req: Request, input: DeprecatedInput): boolean {
  if (input.in === 'query') return Object.hasOwn(req.query, input.name);
  if (input.in === 'header') return req.headers[input.name.toLowerCase()] !== undefined;
  const body: unknown = req.body;
  return body !== null && typeof body === 'object' && !Array.isArray(body) && Object.hasOwn(body, input.name);
}

/** `query parameter status (use state)`: how the Link's title and the log name a deprecated input. */
function describe(input: DeprecatedInput): string {
  const what = input.in === 'body' ? `body property ${input.name}` : `${input.in} parameter ${input.name}`;
  return input.replacement ? `${what} (use ${input.replacement})` : what;
}

/**
 * A request that uses a parameter or body property the spec marks `deprecated: true` is answered
 * with `Deprecation` (RFC 9745: the earliest date of those it used; an operation's own deprecation
 * header, when it has one, stays) and a `Link` of rel "deprecation" to the operation in the
 * reference, whose title names what was used; and the server logs one warning for the request.
 * After validation, which found the operation and parsed the query and body. Undefined when the spec
 * deprecates no input, so requests pay nothing for it.
 */
export function announceDeprecatedInputs({ deprecatedInputs, operations, basePath }: Contract, logger: Logger): RequestHandler | undefined {
  if (deprecatedInputs.size === 0) return undefined;
  const docs = new Map(
    operations.map(({ operation }) => {
      const tag = (operation as { tags?: string[] }).tags?.[0] ?? 'default';
      return [operation.operationId, `${basePath}/docs#/${encodeURIComponent(tag)}/${encodeURIComponent(operation.operationId)}`];
    }),
  );
  return (req, res, next) => {
    const operationId = req.openapi?.schema?.operationId;
    const inputs = operationId === undefined ? undefined : deprecatedInputs.get(operationId);
    const seen = inputs?.filter((input) => used(req, input));
    if (operationId !== undefined && seen && seen.length > 0) {
      const since = Math.min(...seen.map(({ deprecatedAt }) => deprecatedAt.getTime()));
      if (!res.hasHeader('Deprecation')) res.setHeader('Deprecation', deprecationValue(since));
      const title = `${operationId}: deprecated ${seen.map(describe).join(', ')}`.replace(/"/g, "'");
      res.append('Link', `<${docs.get(operationId)}>; rel="deprecation"; title="${title}"`);
      logger.warn({ operation: operationId, deprecated: seen.map(({ field }) => field) }, 'request uses deprecated input');
    }
    next();
  };
}
