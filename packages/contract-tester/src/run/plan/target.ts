import type { ForgeOptions } from '../../generate/request-variants.js';
import type { RequestCredentials } from '../../generate/requests.js';
import { linkSuppliedParameters } from '../../stateful/links.js';
import type { OperationModel } from '../../spec/model.js';
import type { Session } from '../../stateful/session.js';

/** An operation under test, with what each phase's planner makes its requests with. */
export interface OperationTarget {
  operation: OperationModel;
  credentials: RequestCredentials;
  /** The parameters only links give values to (a cursor), left out of requests made up from nothing. */
  options: { linkSupplied: Set<string> };
  /** How forged credentials look: the profile's token prefix, and malformed ones too. */
  forge: ForgeOptions;
}

/** How forged credentials look: the profile's token prefix, and malformed ones too. */
export function forgeOptions(session: Session): ForgeOptions {
  const prefix = session.settings.profile.forgedTokenPrefix;
  return { ...(prefix ? { tokenPrefix: prefix } : {}), malformed: true };
}

export function linkOptions(session: Session, operation: OperationModel): { linkSupplied: Set<string> } {
  return { linkSupplied: linkSuppliedParameters(session.api, operation) };
}

/** The target of an operation the run tests (one it has the credentials for). */
export function operationTarget(session: Session, operation: OperationModel): OperationTarget {
  return {
    operation,
    credentials: session.credentialsFor(operation),
    options: linkOptions(session, operation),
    forge: forgeOptions(session),
  };
}
