import type { Response } from 'express';
import fastJson from 'fast-json-stringify';
import type { Contract } from '../contract/contract.js';
import type { OperationId, SuccessBody } from '../handlers/operation-handler.js';

export type JsonResponder<K extends OperationId> = (res: Response, body: SuccessBody<K>) => void;

interface ResponseObject {
  content?: { 'application/json'?: { schema?: object } };
}

/**
 * Writes an operation's success response with a serialiser compiled (fast-json-stringify) from the
 * response schema openapi.yaml gives that operation and status, so the spec stays the one place the
 * shape is written. Written with the headers res.json sets, without what res.json does besides
 * (content-type negotiation, ETag generation: responses are no-store and carry no ETag).
 */
export function jsonResponder<K extends OperationId>(contract: Contract, operationId: K, status: number): JsonResponder<K> {
  const entry = contract.operations.find(({ operation }) => operation.operationId === operationId);
  const response = entry?.operation.responses[String(status)] as ResponseObject | undefined;
  const schema = response?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`openapi.yaml: ${operationId} documents no application/json ${status} response`);
  // Its $refs point into components, which travel along.
  const serialise = fastJson({ ...schema, components: contract.document.components } as unknown as Parameters<typeof fastJson>[0]);
  return (res, body) => {
    res.statusCode = status;
    // As res.send does: a GET that its conditional headers find fresh (If-None-Match: * with no
    // ETag to compare) is answered 304 without a body.
    if (res.req.fresh) {
      res.statusCode = 304;
      res.end();
      return;
    }
    const json = serialise(body);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(json));
    res.end(json);
  };
}
