import { defineCheck } from '../define.js';
import { documentedContent, wellFormedMediaType } from '../media-types.js';
import type { Problem, ResponseContext } from '../response-check.js';

/** A body's Content-Type is a media type documented for its status. */
export const contentTypeConformance = defineCheck({
  name: 'content_type_conformance',
  on: 'default',
  description: 'a Content-Type documented for the status',
  judgesForm: true,
  readsValidAnswers: true,
  scope: 'documented',
  check: function contentTypeConformance({ documented, response, head }: ResponseContext): Problem[] {
    if (head) return [];
    const mediaTypes = Object.keys(documented!.value.content ?? {});
    if (!mediaTypes.length) return [];
    const contentType = response.headers['content-type'];
    // No body, no type: an empty answer where a body is described is the schema's to judge.
    if (typeof contentType !== 'string') return response.text ? [`no Content-Type, but one of ${mediaTypes.join(', ')} is documented`] : [];
    if (!wellFormedMediaType(contentType)) return [`Content-Type ${contentType} is not a media type`];
    if (!documentedContent(documented!, response)) return [`Content-Type ${contentType} is not one documented (${mediaTypes.join(', ')})`];
    return [];
  },
});
