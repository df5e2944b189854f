import { readFileSync } from 'node:fs';
import type { AnswerCheck, CaseAnswer } from '../../src/checks/case-answer.js';
import type { TestRequest } from '../../src/generate/requests.js';
import type { HttpResponse } from '../../src/http/http-client.js';
import { parseSpec } from '../../src/spec/load.js';
import { readApiModel, type ApiModel, type OperationModel } from '../../src/spec/model.js';
import { petStoreDocument } from './pet-store.js';
import { BOARD_SPEC } from './test-bed/board.js';
import { GALLERY_SPEC } from './test-bed/gallery.js';

export const PET_API = readApiModel(petStoreDocument());
export const GALLERY_API = readApiModel(parseSpec(readFileSync(GALLERY_SPEC, 'utf8')));
export const BOARD_API = readApiModel(parseSpec(readFileSync(BOARD_SPEC, 'utf8')));

/** An operation of a model (the pet store's by default), by id. */
export const operationOf = (id: string, model: ApiModel = PET_API): OperationModel =>
  model.operations.find((candidate) => candidate.id === id)!;

/** `GET /v1/pets/1`, without credentials. */
export const GET_PET: TestRequest = { method: 'GET', target: '/v1/pets/1', headers: [], credentials: { kind: 'none' } };

/** An answer with a JSON body (or none). */
export function answered(status: number, body?: unknown, headers: HttpResponse['headers'] = {}): HttpResponse {
  const text = body === undefined ? '' : JSON.stringify(body);
  return { status, headers, bytes: Buffer.from(text), text, body, elapsedMs: 1 };
}

/** A case's answer: a valid `GET /v1/pets/1` (getPet) answered as given, changed by the parts given. */
export function caseAnswer(response: HttpResponse, parts: Partial<CaseAnswer> = {}): CaseAnswer {
  return { kind: 'positive', operation: operationOf('getPet'), request: GET_PET, allowed: [], strict: {}, ...parts, response };
}

/** How a check of a request that breaks a rule judges it: any 4xx refuses it; a server error is not_a_server_error's. */
export function refusalsOf(check: AnswerCheck): Record<number, string[]> {
  const judged = [200, 302, 400, 404, 422, 499, 500].map((status) => [
    status,
    check.answer(caseAnswer(answered(status), { kind: 'negative' })),
  ]);
  return Object.fromEntries(judged) as Record<number, string[]>;
}

/** What refusalsOf gives for a check that holds a request that breaks its rule to any 4xx. */
export const REFUSED_BY_ANY_4XX = {
  200: ['a request that breaks the contract must be refused with a 4xx, but got 200'],
  302: ['a request that breaks the contract must be refused with a 4xx, but got 302'],
  400: [],
  404: [],
  422: [],
  499: [],
  500: [],
};
