import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { crudOperations, resourceHandlerFiles, rulesScaffoldFiles } from '../../../scripts/generate/resources.js';
import { parseSpec, readSpecText } from '../../../src/contract/spec.js';

type Edit = [path: (string | number)[], value: unknown];

/** openapi.yaml with edits, each at a path of the document (undefined deletes). */
function editedAll(edits: Edit[]) {
  const document = parseDocument(readSpecText());
  for (const [path, value] of edits) {
    if (value === undefined) document.deleteIn(path);
    else document.setIn(path, value);
  }
  return parseSpec(document.toString());
}

/** openapi.yaml with one edit, at a path of the document. */
function edited(path: (string | number)[], value: unknown) {
  return editedAll([[path, value]]);
}

/** A stored schema whose rows name an order and keep it from being deleted (onDelete: restrict). */
const RESTRICTING_NOTE: Edit = [
  ['components', 'schemas', 'OrderNote'],
  {
    type: 'object',
    required: ['id', 'orderId'],
    properties: { id: { type: 'integer' }, orderId: { type: 'integer' } },
    'x-storage': {
      table: 'order_notes',
      key: 'id',
      references: [
        { property: 'orderId', schema: 'Order', onDelete: 'restrict', error: 'order_not_found', restrictError: 'order_has_notes' },
      ],
    },
  },
];

describe('what npm run generate writes for operations marked x-storage: create, get, list, delete (scripts/generate/resources.ts)', () => {
  it("finds each marked operation and the stored schema it works on: its response's, or the one named", () => {
    expect(
      crudOperations(parseSpec(readSpecText())).map(({ entry, kind, persisted }) => [entry.operation.operationId, kind, persisted.table]),
    ).toEqual([
      ['listStoreOrders', 'list', 'orders'],
      ['createStoreOrder', 'create', 'orders'],
      ['getStoreOrder', 'get', 'orders'],
      ['deleteStoreOrder', 'delete', 'orders'],
    ]);
  });

  it('writes one handler per operation into generated/handlers/, typed by the operation', () => {
    const files = resourceHandlerFiles(parseSpec(readSpecText()), '// header\n', 'generated');
    expect(files.map(({ path }) => path)).toEqual([
      'generated/handlers/list-store-orders.ts',
      'generated/handlers/create-store-order.ts',
      'generated/handlers/get-store-order.ts',
      'generated/handlers/delete-store-order.ts',
    ]);
    const create = files[1]!.text;
    expect(create).toContain("OperationHandler<'createStoreOrder'>");
    expect(create).toContain(
      "if (outcome.kind === 'missing_reference' && outcome.property === \"petId\") throw apiError('order_pet_not_found', { petId: input.petId });",
    );
    expect(create).toContain("Location: operationPath(basePath, 'getStoreOrder', { orderId: created.id })");
    expect(files[0]!.text).toContain('const filters = { "status": query["status"] };');
  });

  describe('a create that takes an Idempotency-Key', () => {
    const keyed: Edit = [['paths', '/store/orders', 'post', 'parameters', 2], { $ref: '#/components/parameters/IdempotencyKey' }];
    const answers = (status: string, response: string): Edit => [
      ['paths', '/store/orders', 'post', 'responses', status],
      { $ref: `#/components/responses/${response}` },
    ];
    const create = (edits: Edit[]) => resourceHandlerFiles(editedAll(edits), '', 'generated')[1]!.text;

    it('records the answer with the row and replays it, under a fingerprint of the operation and the body', () => {
      const text = create([keyed, answers('409', 'IdempotencyKeyInProgress')]);
      expect(text).toContain("RecordingOperationHandler<'createStoreOrder'>");
      expect(text).toContain("Pick<HandlerDeps, 'storage' | 'basePath' | 'clock' | 'idempotencyRetentionSeconds'>");
      expect(text).toContain('const header = headers["Idempotency-Key"];');
      expect(text).toContain(
        "keyedRequest('createStoreOrder', { header, body, accountId: principal.accountId, now }, idempotencyRetentionSeconds)",
      );
      expect(text).toContain('storage.insertRowIdempotently<OrderRow>(ORDER_TABLE, newOrderValues(input), idempotency, (row) =>');
      expect(text).toContain('return answerOf(outcome);');
      // Both paths refuse a missing reference with the declared error.
      expect(text.split("throw apiError('order_pet_not_found'").length - 1).toBe(2);
    });

    it('without the header, writes the create as before', () => {
      const text = create([]);
      expect(text).toContain("OperationHandler<'createStoreOrder'>");
      expect(text).not.toContain('insertRowIdempotently');
      expect(text).not.toContain('idempotencyRetentionSeconds');
    });

    it('refuses it until its 409 (another request with the key in progress) is documented', () => {
      expect(() => create([keyed])).toThrow('createStoreOrder: x-storage create answers 409: document it');
    });
  });

  it('writes a list without a Link header as one page, importing nothing of paging links', () => {
    const spec = edited(['paths', '/store/orders', 'get', 'responses', '200', 'headers', 'Link'], undefined);
    const [list] = resourceHandlerFiles(spec, '', 'generated');
    expect(list!.text).toContain("import { decodeCursor } from '../../src/handlers/paging.js';");
    expect(list!.text).not.toContain('basePath');
    expect(list!.text).toContain('return { status: 200, body: items };');
  });

  it('scaffolds the business rules of a schema once, where no file is', () => {
    const root = mkdtempSync(join(tmpdir(), 'petstore-rules-'));
    try {
      const spec = parseSpec(readSpecText());
      expect(rulesScaffoldFiles(spec, root).map(({ path }) => path)).toEqual(['src/rules/order.ts']);
      mkdirSync(join(root, 'src/rules'), { recursive: true });
      writeFileSync(join(root, 'src/rules/order.ts'), 'edited');
      expect(rulesScaffoldFiles(spec, root)).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it.each([
    [
      'a schema that is not stored',
      ['paths', '/store/orders/{orderId}', 'delete', 'x-storage'],
      { operation: 'delete', schema: 'Error' },
      'deleteStoreOrder: x-storage delete works on Error, which is not stored: mark it x-storage',
    ],
    [
      'an Idempotency-Key on an operation other than a create',
      ['paths', '/store/orders/{orderId}', 'get', 'parameters', 2],
      { $ref: '#/components/parameters/IdempotencyKey' },
      "getStoreOrder: only a generated create honours Idempotency-Key: drop it, or the operation's x-storage",
    ],
  ])('refuses %s, naming the operation and the fix', (_, path, value, message) => {
    expect(() => crudOperations(edited(path, value))).toThrow(message);
  });

  it('writes a delete that answers the error of each reference restricting it, once its 409 is documented', () => {
    expect(() => resourceHandlerFiles(editedAll([RESTRICTING_NOTE]), '', 'generated')).toThrow(
      'deleteStoreOrder: x-storage delete answers 409: document it',
    );
    const conflict: Edit = [['paths', '/store/orders/{orderId}', 'delete', 'responses', '409'], { description: 'The order has notes.' }];
    const files = resourceHandlerFiles(editedAll([RESTRICTING_NOTE, conflict]), '', 'generated');
    const remove = files.find(({ path }) => path.endsWith('delete-store-order.ts'))!.text;
    expect(remove).toContain(`if (outcome.constraint === "order_notes_order_id_fkey") throw apiError('order_has_notes', { orderId });`);
  });

  it('refuses onDelete restrict on a reference to a schema whose delete is not generated, or without restrictError', () => {
    const onPets: Edit = [['components', 'schemas', 'Order', 'x-storage', 'references', 0, 'onDelete'], 'restrict'];
    expect(() => crudOperations(editedAll([onPets]))).toThrow('with restrictError: <ErrorCode> (409');
    const withError: Edit = [['components', 'schemas', 'Order', 'x-storage', 'references', 0, 'restrictError'], 'pet_has_orders'];
    expect(() => crudOperations(editedAll([onPets, withError]))).toThrow(
      "Order.petId: onDelete restrict answers pet_has_orders from Pet's delete, which is not generated",
    );
  });

  describe('a versioned schema (x-storage versioned: true), whose rows have ETags', () => {
    const order = ['paths', '/store/orders/{orderId}'];
    const versioned: Edit[] = [
      [['components', 'schemas', 'Order', 'x-storage', 'versioned'], true],
      [[...order, 'get', 'responses', '200', 'headers', 'ETag'], { $ref: '#/components/headers/PetETag' }],
      [['paths', '/store/orders', 'post', 'responses', '201', 'headers', 'ETag'], { $ref: '#/components/headers/PetETag' }],
      [[...order, 'delete', 'parameters', 3], { $ref: '#/components/parameters/IfMatch' }],
    ];
    const withPreconditions: Edit[] = [
      ...versioned,
      [['components', 'schemas', 'Order', 'x-storage', 'preconditionFailed'], 'precondition_failed'],
      [[...order, 'delete', 'responses', '412'], { $ref: '#/components/responses/PreconditionFailed' }],
    ];

    it('answers its get with the ETag of the version after the read columns, and deletes only at a version If-Match lists', () => {
      const files = resourceHandlerFiles(editedAll(withPreconditions), '', 'generated');
      const text = (name: string) => files.find(({ path }) => path.endsWith(name))!.text;
      expect(text('get-store-order.ts')).toContain('const row = storage.getRow<[...OrderRow, version: number]>(ORDER_TABLE, orderId);');
      expect(text('get-store-order.ts')).toContain('headers: { ETag: rowETag(orderId, row[5]) }');
      expect(text('create-store-order.ts')).toContain('ETag: rowETag(created.id, row[5])');
      const remove = text('delete-store-order.ts');
      expect(remove).toContain('const expected = expectedVersions(orderId, headers["If-Match"]);');
      expect(remove).toContain('const outcome = await storage.deleteRow(ORDER_TABLE, orderId, expected);');
      expect(remove).toContain("if (outcome.kind === 'precondition_failed') throw apiError('precondition_failed', {});");
    });

    it('refuses If-Match without its 412 or its error code, and an ETag or If-Match on a schema without versions', () => {
      expect(() => resourceHandlerFiles(editedAll(versioned), '', 'generated')).toThrow(
        'deleteStoreOrder: x-storage delete answers 412: document it',
      );
      expect(() => resourceHandlerFiles(editedAll([...versioned, withPreconditions[5]!]), '', 'generated')).toThrow(
        "deleteStoreOrder: If-Match answers 412 with Order's x-storage `preconditionFailed` error code: give one",
      );
      expect(() => crudOperations(editedAll(versioned.slice(3)))).toThrow(
        "deleteStoreOrder: If-Match compares Order's versions: mark its x-storage versioned: true",
      );
      expect(() => resourceHandlerFiles(editedAll(versioned.slice(1, 2)), '', 'generated')).toThrow(
        "getStoreOrder: its ETag is a version of Order's row: mark its x-storage versioned: true",
      );
    });
  });

  const handlerOf = (spec: ReturnType<typeof edited>, file: string) =>
    resourceHandlerFiles(spec, '', 'generated').find(({ path }) => path.endsWith(file))!.text;
  const orders = ['paths', '/store/orders'];
  const order = ['paths', '/store/orders/{orderId}'];

  it("answers a create and a delete with the success status their operations document: another document's 200", () => {
    const created = parseDocument(readSpecText()).getIn([...orders, 'post', 'responses', '201']);
    const spec = editedAll([
      [[...orders, 'post', 'responses', '201'], undefined],
      [[...orders, 'post', 'responses', '200'], created],
      [[...order, 'delete', 'responses', '204'], undefined],
      [[...order, 'delete', 'responses', '200'], { description: 'Deleted.' }],
    ]);
    expect(handlerOf(spec, 'create-store-order.ts')).toContain('return { status: 200, body: created');
    expect(handlerOf(spec, 'delete-store-order.ts')).toContain('return { status: 200 };');
    const withBody = editedAll([
      [[...order, 'delete', 'responses', '204'], undefined],
      [[...order, 'delete', 'responses', '200'], { description: 'Deleted.', content: { 'application/json': { schema: {} } } }],
    ]);
    expect(() => resourceHandlerFiles(withBody, '', 'generated')).toThrow('x-storage delete answers 200 without a body');
  });

  it('lists every row, in key order, for a list whose operation declares no limit', () => {
    const spec = edited([...orders, 'get', 'parameters'], [{ $ref: '#/components/parameters/RequestId' }]);
    const list = handlerOf(spec, 'list-store-orders.ts');
    expect(list).toContain('limit: Number.MAX_SAFE_INTEGER, filters: {}');
    expect(list).not.toContain('cursor');
  });

  it('reads an integer key from a path parameter the document declares a string, a non-integer naming no row', () => {
    const spec = edited(['components', 'parameters', 'OrderIdPath', 'schema'], { type: 'string' });
    for (const file of ['get-store-order.ts', 'delete-store-order.ts']) {
      const handler = handlerOf(spec, file);
      expect(handler).toContain('const key = integerKey(orderId);');
      expect(handler).toContain("if (key === undefined) throw apiError('order_not_found', { orderId });");
    }
  });

  it('takes parameters from the path item, and a delete without a body works on its path’s other marked schema', () => {
    const parameters = parseDocument(readSpecText()).getIn([...order, 'get', 'parameters']);
    const spec = editedAll([
      [[...order, 'parameters'], parameters],
      [[...order, 'get', 'parameters'], undefined],
      [[...order, 'delete', 'x-storage'], 'delete'],
    ]);
    const get = crudOperations(spec).find(({ entry }) => entry.operation.operationId === 'getStoreOrder')!;
    expect(get.persisted.read).toBe('Order');
    expect(handlerOf(spec, 'get-store-order.ts')).toContain('({ path: { orderId } })');
    expect(crudOperations(spec).find(({ kind }) => kind === 'delete')!.persisted.read).toBe('Order');
    const alone = editedAll([
      [[...order, 'delete', 'x-storage'], 'delete'],
      [[...order, 'get', 'x-storage'], undefined],
    ]);
    expect(() => crudOperations(alone)).toThrow(
      'deleteStoreOrder: x-storage delete needs its schema: { operation: delete, schema: <a schema marked x-storage> }',
    );
  });

  it("refuses a path parameter no key names unless x-storage's unscoped says the rows do not depend on it", () => {
    const parent = { name: 'storeId', in: 'path', required: true, schema: { type: 'string' } };
    const nested = (unscoped?: string[]) => {
      const document = parseDocument(readSpecText());
      const item = document.getIn(order) as { toJSON(): Record<string, Record<string, unknown>> };
      const json = item.toJSON();
      json['get']!['parameters'] = [...(json['get']!['parameters'] as unknown[]), parent];
      if (unscoped) json['get']!['x-storage'] = { operation: 'get', unscoped };
      document.setIn(['paths', '/stores/{storeId}/orders/{orderId}'], json);
      document.deleteIn(order);
      document.deleteIn([...orders, 'post', 'responses', '201', 'links']);
      document.deleteIn([...orders, 'post', 'responses', '201', 'headers', 'Location']);
      return parseSpec(document.toString());
    };
    expect(() => resourceHandlerFiles(nested(), '', 'generated')).toThrow(
      "getStoreOrder: x-storage get takes the row's key from its one path parameter; name any other in x-storage's unscoped",
    );
    expect(handlerOf(nested(['storeId']), 'get-store-order.ts')).toContain('storage.getRow<OrderRow>(ORDER_TABLE, orderId)');
    const listed = editedAll([
      [
        [...orders, 'get', 'parameters'],
        [{ $ref: '#/components/parameters/Limit' }, parent],
      ],
    ]);
    expect(() => crudOperations(listed)).toThrow(
      "listStoreOrders: x-storage list stores nothing of its path parameters: name them in x-storage's unscoped",
    );
  });

  it('refuses a boolean, JSON or nullable property on a schema whose storage is hand-written (no generated operation: Pet)', () => {
    for (const shape of [{ type: 'boolean' }, { type: 'object' }, { type: ['string', 'null'] }]) {
      const spec = edited(['components', 'schemas', 'Pet', 'properties', 'neutered'], shape);
      expect(() => crudOperations(spec)).toThrow('Pet.neutered is ');
      expect(() => crudOperations(spec)).toThrow('its storage is hand-written and binds strings, integers and numbers only');
    }
  });

  it("refuses a create whose key, one the client sends, a row has: the stack's conflict, or x-storage's own code", () => {
    const clientKey: Edit = [['components', 'schemas', 'NewOrder', 'properties', 'id'], { type: 'integer' }];
    const required: Edit = [
      ['components', 'schemas', 'NewOrder', 'required'],
      ['id', 'petId', 'quantity'],
    ];
    expect(handlerOf(editedAll([clientKey, required]), 'create-store-order.ts')).toContain(
      `if (outcome.kind === 'duplicate_key') throw apiError('conflict', { resource: "Order", key: String(input.id) });`,
    );
    const own = editedAll([clientKey, required, [['components', 'schemas', 'Order', 'x-storage', 'conflict'], 'order_exists']]);
    expect(handlerOf(own, 'create-store-order.ts')).toContain(`throw apiError('order_exists', { id: input.id });`);
    // A key the database makes is never a client's to repeat.
    expect(handlerOf(editedAll([]), 'create-store-order.ts')).not.toContain("'duplicate_key') throw");
  });

  it("answers a key with no row with the stack's not_found where the schema names no notFound code of its own", () => {
    const spec = edited(['components', 'schemas', 'Order', 'x-storage', 'notFound'], undefined);
    const get = resourceHandlerFiles(spec, '', 'generated').find(({ path }) => path.endsWith('get-store-order.ts'))!;
    expect(get.text).toContain('throw apiError(\'not_found\', { resource: "Order", key: String(orderId) })');
  });
});
