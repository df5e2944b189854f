import { describe, expect, it } from 'vitest';
import { allowHeaderConformance, allowList } from '../../../src/checks/case/allow-header-conformance.js';
import { answered, caseAnswer, GET_PET } from '../../support/case-answer.js';

describe('allow_header_conformance', () => {
  it("has a 405 to a method the path does not have list the path's methods, not the one refused", () => {
    const wrong = { kind: 'method' as const, request: { ...GET_PET, method: 'PUT' }, allowed: ['GET', 'HEAD'] };
    const judge = (status: number, allow?: string) =>
      allowHeaderConformance.answer(caseAnswer(answered(status, undefined, allow === undefined ? {} : { allow }), wrong));
    expect(judge(405, 'GET, HEAD')).toEqual([]);
    expect(judge(404)).toEqual([]);
    expect(judge(405, 'GET')).toEqual(['Allow: GET leaves out HEAD']);
    expect(judge(405, 'GET, HEAD, PUT')).toEqual(['Allow lists PUT, which was refused']);
    expect(judge(405, '')).toEqual(['Allow: (empty) leaves out GET, HEAD']);
  });

  it('leaves a 405 without Allow to unsupported_method, so that it is reported once', () => {
    const wrong = { kind: 'method' as const, request: { ...GET_PET, method: 'PUT' }, allowed: ['GET', 'HEAD'] };
    expect(allowHeaderConformance.answer(caseAnswer(answered(405), wrong))).toEqual([]);
  });

  it("has the Allow of a successful OPTIONS, if any, list the path's methods", () => {
    const options = { kind: 'options' as const, request: { ...GET_PET, method: 'OPTIONS' }, allowed: ['GET', 'POST'] };
    const judge = (status: number, allow?: string) =>
      allowHeaderConformance.answer(caseAnswer(answered(status, undefined, allow === undefined ? {} : { allow }), options));
    expect(judge(204, 'GET, POST, OPTIONS')).toEqual([]);
    expect(judge(204)).toEqual([]);
    expect(judge(405, 'GET')).toEqual([]);
    expect(judge(200, 'GET')).toEqual(['Allow: GET leaves out POST']);
  });

  it('reads an Allow header as upper-cased methods', () => {
    expect(allowList(['GET, head', ' POST'])).toEqual(['GET', 'HEAD', 'POST']);
    expect(allowList(undefined)).toEqual([]);
  });
});
