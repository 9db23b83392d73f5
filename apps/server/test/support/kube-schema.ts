import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as k8s from '@kubernetes/client-node';

/**
 * Checks a manifest against the kept client's models, which OpenAPI Generator made from Kubernetes'
 * published OpenAPI document (release-1.36, as their headers say): every field must be one the
 * model has, of its type (objects, arrays, maps, strings, integers, booleans, int-or-string), and
 * every field the model requires (a non-optional property of its declaration) must be there. No
 * schema is written here: the field lists, types and required fields are read from the package.
 * What it does not check: value formats (quantities, label syntax) and enum values, which the
 * models keep as plain strings; an API server checks those.
 */
type Attr = { baseName: string; type: string; format: string };
type Model = { getAttributeTypeMap(): Attr[] };

const modelsDir = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@kubernetes/client-node')),
  'gen',
  'models',
);
const required = new Map<string, Set<string>>();
function requiredOf(type: string): Set<string> {
  let set = required.get(type);
  if (!set) {
    const text = readFileSync(path.join(modelsDir, `${type}.d.ts`), 'utf8');
    set = new Set([...text.matchAll(/^\s+'([A-Za-z0-9$_-]+)': /gm)].map((m) => m[1]!));
    required.set(type, set);
  }
  return set;
}

export function schemaErrors(value: unknown, type: string, at = ''): string[] {
  const errors: string[] = [];
  check(value, type, at || type, errors);
  return errors;
}

function check(value: unknown, type: string, at: string, errors: string[], format = ''): void {
  if (value === undefined || value === null) return;
  const array = /^Array<(.+)>$/.exec(type);
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (array) {
    if (!Array.isArray(value)) return void errors.push(`${at}: must be an array`);
    for (const [i, v] of value.entries()) check(v, array[1]!, `${at}[${i}]`, errors);
    return;
  }
  if (map) {
    if (typeof value !== 'object' || Array.isArray(value)) return void errors.push(`${at}: must be an object`);
    for (const [k, v] of Object.entries(value)) check(v, map[1]!, `${at}.${k}`, errors);
    return;
  }
  switch (type) {
    case 'string':
    case 'Date':
      if (typeof value !== 'string') errors.push(`${at}: must be a string`);
      return;
    case 'number':
      if (typeof value !== 'number') errors.push(`${at}: must be a number`);
      else if (/^int/.test(format) && !Number.isInteger(value)) errors.push(`${at}: must be an integer`);
      return;
    case 'boolean':
      if (typeof value !== 'boolean') errors.push(`${at}: must be a boolean`);
      return;
    case 'IntOrString':
      if (typeof value !== 'string' && !Number.isInteger(value)) errors.push(`${at}: must be an integer or a string`);
      return;
    case 'any':
    case 'object':
      return;
  }
  const model = (k8s as unknown as Record<string, Model | undefined>)[type];
  if (!model?.getAttributeTypeMap) return void errors.push(`${at}: unknown model ${type}`);
  if (typeof value !== 'object' || Array.isArray(value)) return void errors.push(`${at}: must be an object`);
  const attrs = new Map(model.getAttributeTypeMap().map((a) => [a.baseName, a]));
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const attr = attrs.get(k);
    if (!attr) errors.push(`${at}.${k}: no such field in ${type}`);
    else check(v, attr.type, `${at}.${k}`, errors, attr.format);
  }
  for (const name of requiredOf(type)) {
    if ((value as Record<string, unknown>)[name] === undefined) errors.push(`${at}.${name}: required by ${type}`);
  }
}
