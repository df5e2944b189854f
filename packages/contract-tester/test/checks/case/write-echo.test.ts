import { describe, expect, it } from 'vitest';
import { sentValue, writeEcho } from '../../../src/checks/case/write-echo.js';
import type { TestRequest } from '../../../src/generate/requests.js';
import { answered, caseAnswer, GALLERY_API, GET_PET, operationOf } from '../../support/case-answer.js';

const create: TestRequest = {
  method: 'POST',
  target: '/v1/pets',
  headers: [],
  credentials: { kind: 'none' },
  body: Buffer.from('{"name":"Rex","categoryId":3}'),
};

describe('write_echo', () => {
  it('has a create return the fields it was sent', () => {
    const judge = (response: ReturnType<typeof answered>, operation = operationOf('createPet'), request = create) =>
      writeEcho.answer(caseAnswer(response, { operation, request }));
    expect(judge(answered(201, { id: 1, name: 'Rex', categoryId: 3 }))).toEqual([]);
    expect(judge(answered(201, { id: 1, name: 'rex', categoryId: 3 }))).toEqual(['name was sent as "Rex" but came back as "rex"']);
    expect(judge(answered(400, { code: 'x' }))).toEqual([]);
    expect(judge(answered(200, {}), operationOf('getPet'), GET_PET)).toEqual([]);
  });

  it('has an update (PATCH, a merge patch) return what it set, and not what it removed with null', () => {
    const patch: TestRequest = { ...create, method: 'PATCH', body: Buffer.from('{"title":"New","room":null}') };
    const operation = operationOf('updateExhibition', GALLERY_API);
    const judge = (body: unknown, request = patch, value?: unknown) =>
      writeEcho.answer(caseAnswer(answered(200, body), { operation, request, ...(value === undefined ? {} : { value }) }));
    expect(judge({ exhibitionId: 'x', title: 'New', price: 1, dates: [] })).toEqual([]);
    expect(judge({ title: 'Old', room: 'East' })).toEqual([
      'title was sent as "New" but came back as "Old"',
      'room was removed (null) but came back as "East"',
    ]);
    // A body made from a value (a form) is compared by that value.
    expect(judge({ title: 'x' }, { ...patch, body: Buffer.from('title=x') }, { title: 'x' })).toEqual([]);
  });

  it('reads what was sent from the value it was made from, or else the JSON body', () => {
    expect(sentValue(create)).toEqual({ name: 'Rex', categoryId: 3 });
    expect(sentValue({ ...create, body: Buffer.from('name=Rex') })).toBeUndefined();
    expect(sentValue(create, { name: 'Max' })).toEqual({ name: 'Max' });
    expect(sentValue(GET_PET)).toBeUndefined();
  });
});
