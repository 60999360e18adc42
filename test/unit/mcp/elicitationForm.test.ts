// The form model of MCP elicitation (src/protocol/elicitationForm.ts): a requested schema's
// primitive fields, labelled, with their defaults and choices; what the user typed checked and
// turned into the content the server gets. The chat's form and the CLI's questions both use it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { elicitationContent, elicitationFields } from '../../../src/protocol/elicitationForm';

const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Your name', description: 'As on your passport', minLength: 2 },
    email: { type: 'string', format: 'email' },
    age: { type: 'integer', title: 'Age', minimum: 0, maximum: 150, default: 30 },
    ratio: { type: 'number' },
    agree: { type: 'boolean', title: 'Agree to the terms', default: false },
    color: { type: 'string', enum: ['red', 'green'], enumNames: ['Red', 'Green'] },
    size: {
      type: 'string',
      oneOf: [
        { const: 's', title: 'Small' },
        { const: 'l', title: 'Large' },
      ],
    },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2 },
    nested: { type: 'object', properties: {} },
  },
  required: ['name', 'email', 'agree'],
};

test('each primitive property is a labelled field of its kind; a nested object is listed as unsupported, not dropped silently', () => {
  const { fields, unsupported } = elicitationFields(SCHEMA);
  assert.deepEqual(
    fields.map((f) => [f.key, f.label, f.kind, f.required]),
    [
      ['name', 'Your name', 'text', true],
      ['email', 'email', 'text', true],
      ['age', 'Age', 'integer', false],
      ['ratio', 'ratio', 'number', false],
      ['agree', 'Agree to the terms', 'boolean', true],
      ['color', 'color', 'select', false],
      ['size', 'size', 'select', false],
      ['tags', 'tags', 'multiselect', false],
    ],
  );
  assert.deepEqual(unsupported, ['nested']);
  const byKey = Object.fromEntries(fields.map((f) => [f.key, f]));
  assert.equal(byKey.name!.description, 'As on your passport');
  assert.equal(byKey.email!.format, 'email');
  assert.deepEqual([byKey.age!.default, byKey.age!.minimum, byKey.age!.maximum], [30, 0, 150]);
  assert.deepEqual(byKey.color!.options, [
    { value: 'red', label: 'Red' },
    { value: 'green', label: 'Green' },
  ]);
  assert.deepEqual(byKey.size!.options, [
    { value: 's', label: 'Small' },
    { value: 'l', label: 'Large' },
  ]);
});

test('a valid answer becomes typed content; blanks keep the default; choices match by value or label', () => {
  const { fields } = elicitationFields(SCHEMA);
  const r = elicitationContent(fields, {
    name: 'Ada',
    email: 'ada@example.org',
    age: '',
    ratio: '0.5',
    agree: true,
    color: 'Green',
    size: 's',
    tags: ['a', 'B'],
  });
  assert.deepEqual(r, { content: { name: 'Ada', email: 'ada@example.org', age: 30, ratio: 0.5, agree: true, color: 'green', size: 's', tags: ['a', 'b'] } });
  // Terminal answers are text: y/n for booleans, comma-separated for multi-selects.
  const typed = elicitationContent(fields, { name: 'Ada', email: 'a@b.co', agree: 'y', tags: 'a, c' });
  assert.deepEqual(typed, { content: { name: 'Ada', email: 'a@b.co', age: 30, agree: true, tags: ['a', 'c'] } });
});

test('bad input: each wrong field gets a message naming it; required ones left empty are named', () => {
  const { fields } = elicitationFields(SCHEMA);
  const r = elicitationContent(fields, { name: 'A', email: 'not-an-email', age: '12.5', ratio: 'x', color: 'blue', tags: ['a', 'b', 'c'] });
  assert.ok('errors' in r);
  assert.deepEqual(r.errors, {
    name: 'Your name: at least 2 characters',
    email: 'email: enter an email address',
    age: 'Age: enter a whole number',
    ratio: 'ratio: enter a number',
    color: 'color: one of red, green',
    tags: 'tags: choose at most 2',
  });
  const empty = elicitationContent(fields, {});
  assert.ok('errors' in empty);
  assert.deepEqual(Object.keys(empty.errors), ['name', 'email']);
  assert.equal(elicitationFields({ ...SCHEMA, required: ['age'] }).fields.find((f) => f.key === 'age')!.required, true);
  const out = elicitationContent(elicitationFields({ properties: { n: { type: 'integer', maximum: 10 } } }).fields, { n: '11' });
  assert.deepEqual(out, { errors: { n: 'n: at most 10' } });
});

test('formats: uri and date are checked; a schema that is not an object gives no fields', () => {
  const { fields } = elicitationFields({ properties: { site: { type: 'string', format: 'uri' }, born: { type: 'string', format: 'date' } } });
  assert.deepEqual(elicitationContent(fields, { site: 'https://example.com', born: '1990-02-03' }), {
    content: { site: 'https://example.com', born: '1990-02-03' },
  });
  assert.deepEqual(elicitationContent(fields, { site: 'example', born: '03/02/1990' }), {
    errors: { site: 'site: enter a URI (such as https://example.com)', born: 'born: enter a date as YYYY-MM-DD' },
  });
  assert.deepEqual(elicitationFields(null), { fields: [], unsupported: [] });
  assert.deepEqual(elicitationFields({ properties: 'x' }), { fields: [], unsupported: [] });
});
