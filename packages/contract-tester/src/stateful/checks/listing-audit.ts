import { ConfigError, object, only } from '../../settings.js';
import { defineCheck } from '../../checks/define.js';
import { jsonEqual, jsonText } from '../../generate/json-text.js';
import { valueAtPointer } from '../../spec/openapi.js';
import { namesDeleted, type Resource, type ResourceLedger } from '../resources.js';

/** A collection's whole listing as read, page by page, and what the run knows of what it created there. */
export interface Listed {
  /** The ids of the listing's operation and of the create that makes its items. */
  listing: string;
  create: string;
  /** The JSON pointer of what identifies an item, if the create's links give one. */
  identity?: string;
  items: unknown[];
  pages: number;
  ledger: ResourceLedger;
  /** Whether a resource the ledger holds present answers 404 or 410 when read back now. */
  goneNow: (resource: Resource) => Promise<boolean>;
}

/** The most pages it reads. */
function auditPages(setting: unknown, where: string): number {
  const rule = object(setting, where);
  only(rule, ['maxPages'], where);
  if (!Number.isSafeInteger(rule['maxPages']) || (rule['maxPages'] as number) < 1)
    throw new ConfigError(`${where}.maxPages must be a positive integer`);
  return rule['maxPages'] as number;
}

/**
 * Every resource the run created is in the listing as the run last saw it: once, as its last write
 * answered it (unchanged when nothing wrote it since), and not at all once deleted. Resources whose
 * fate the run cannot know (a write answered 5xx) are left out.
 */
export const listingAudit = defineCheck({
  name: 'listing_audit',
  on: 'profile',
  description: 'the listing shows each resource the run created, as it last was, and none it deleted',
  settings: (setting: unknown, where: string) => (setting === true ? {} : { auditPages: auditPages(setting, where) }),
  check: async function listingAudit(listed: Listed): Promise<string[]> {
    const { identity, items, ledger, listing, pages } = listed;
    const identify = (item: unknown) => jsonText(identity === undefined ? item : valueAtPointer(item, identity));
    const byIdentity = new Map<string, unknown[]>();
    for (const item of items) {
      const key = identify(item);
      const same = byIdentity.get(key);
      if (same) same.push(item);
      else byIdentity.set(key, [item]);
    }
    const wrong: string[] = [];
    for (const resource of ledger.resources.filter(({ createdBy, state }) => createdBy === listed.create && state !== 'uncertain')) {
      const current = resource.last === 'unknown' ? undefined : resource.last.body;
      const key = identity === undefined ? jsonText(current ?? resource.created) : jsonText(ledger.identityOf(resource, identity));
      const matches = byIdentity.get(key) ?? [];
      const shown = jsonText(current ?? resource.created);
      if (resource.state === 'deleted') {
        if (matches.length) wrong.push(`${shown} (${resource.path}), deleted, is still listed by ${listing}`);
      } else if (matches.length === 0 && namesDeleted(ledger.resources, resource) && (await listed.goneNow(resource))) {
        // Not listed, and read back it is gone, and it names what the run deleted: the server removed
        // it with what it belongs to (a cascade), which the sequences cannot know of. One gone that
        // names nothing deleted is lost, and reported.
        continue;
      } else if (matches.length !== 1) {
        wrong.push(
          `${shown}, created by ${listed.create} (${resource.path}), appears ${matches.length} times in ${listing} (${pages} pages, ${items.length} items)`,
        );
      } else if (current !== undefined && !jsonEqual(matches[0], current)) {
        wrong.push(`${resource.path} last answered ${shown}, but ${listing} lists ${jsonText(matches[0])}`);
      }
    }
    return wrong.length ? [wrong.join('\n')] : [];
  },
});
