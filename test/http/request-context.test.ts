import { ServerResponse, IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { contextOf, noteRawAnswer } from '../../src/http/request-context.js';

const response = () => new ServerResponse(new IncomingMessage(new Socket()));

describe('the context of a request', () => {
  it('is one per response, made by the first step that asks, and starts empty', () => {
    const res = response();
    const context = contextOf(res);
    expect(contextOf(res)).toBe(context);
    expect(contextOf(response())).not.toBe(context);
    expect({ ...context }).toStrictEqual({
      heldHeaders: undefined,
      headersOnResponse: false,
      requestId: undefined,
      targetProblem: undefined,
      arrivedAsHead: false,
      deprecation: undefined,
      principal: undefined,
      observed: false,
      startedAt: 0,
      errorCode: undefined,
      answeredRaw: false,
    });
  });

  it('keeps what the request log reads: observed, the error code, an answer written below Express', () => {
    const res = response();
    const context = contextOf(res);
    context.observed = true;
    context.errorCode = 'validation_failed';
    expect([context.observed, context.errorCode, context.answeredRaw]).toEqual([true, 'validation_failed', false]);
    noteRawAnswer(res, 408, 'request_timeout');
    expect([res.statusCode, context.errorCode, context.answeredRaw]).toEqual([408, 'request_timeout', true]);
  });
});
