import { object, only, pointer, text } from '../../settings.js';
import type { ErrorSchemaRule } from '../../profile.js';
import { defineCheck } from '../define.js';
import { mediaTypeOf } from '../media-types.js';
import type { Problem, ResponseContext } from '../response-check.js';

/** The rule: the schema every error keeps, its media type, and where it repeats the status and names its code. */
function errorSchemaRule(setting: unknown, where: string): ErrorSchemaRule {
  const rule = object(setting, where);
  only(rule, ['schema', 'mediaType', 'statusProperty', 'codeProperty', 'codes'], where);
  const errorSchema: ErrorSchemaRule = {
    schema: pointer(rule['schema'], `${where}.schema`),
    mediaType: text(rule['mediaType'] ?? 'application/json', `${where}.mediaType`),
  };
  if (rule['statusProperty'] !== undefined) errorSchema.statusProperty = text(rule['statusProperty'], `${where}.statusProperty`);
  if (rule['codeProperty'] !== undefined) errorSchema.codeProperty = text(rule['codeProperty'], `${where}.codeProperty`);
  if (rule['codes'] !== undefined) errorSchema.codes = pointer(rule['codes'], `${where}.codes`);
  return errorSchema;
}

/** Every error is the profile's one error schema, its status and code as the spec gives them. */
export const errorSchemaConformance = defineCheck({
  name: 'error_schema_conformance',
  on: 'profile',
  description: "every error is one schema's object, its status and code as the spec gives",
  settings: (setting: unknown, where: string) => ({ errorSchema: errorSchemaRule(setting, where) }),
  judgesForm: true,
  readsValidAnswers: true,
  scope: 'every',
  check: function errorSchemaConformance({ profile, response, head, where, errorCodes, schemaViolation }: ResponseContext): Problem[] {
    const rule = profile.errorSchema;
    const { headers, status } = response;
    if (!rule || status < 400 || head) return [];
    if (mediaTypeOf(headers['content-type']) !== rule.mediaType) return [`an error must be ${rule.mediaType}`];
    const problems: Problem[] = [];
    const violation = schemaViolation(rule.schema, response.body, `${where} error body`);
    if (violation) problems.push(violation);
    const body = response.body as Record<string, unknown> | undefined;
    const stated = rule.statusProperty === undefined ? undefined : body?.[rule.statusProperty];
    if (stated !== undefined && stated !== status)
      problems.push(`${rule.statusProperty} ${JSON.stringify(stated)} differs from the HTTP status`);
    const code = rule.codeProperty === undefined ? undefined : body?.[rule.codeProperty];
    if (typeof code === 'string' && errorCodes && errorCodes.get(code) !== status)
      problems.push(`the spec gives code ${code} another status`);
    return problems;
  },
});
