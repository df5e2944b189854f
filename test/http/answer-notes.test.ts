import { ServerResponse, IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { answeredRaw, errorCodeOf, isObserved, markObserved, noteErrorCode, noteRawAnswer } from '../../src/http/answer-notes.js';

const response = () => new ServerResponse(new IncomingMessage(new Socket()));

describe('notes on a response', () => {
  it('start empty', () => {
    const res = response();
    expect([isObserved(res), errorCodeOf(res), answeredRaw(res)]).toEqual([false, undefined, false]);
  });

  it('keep what the request log reads: observed, the error code, an answer written below Express', () => {
    const res = response();
    markObserved(res);
    noteErrorCode(res, 'validation_failed');
    expect([isObserved(res), errorCodeOf(res), answeredRaw(res)]).toEqual([true, 'validation_failed', false]);
    noteRawAnswer(res, 408, 'request_timeout');
    expect([res.statusCode, errorCodeOf(res), answeredRaw(res)]).toEqual([408, 'request_timeout', true]);
  });
});
