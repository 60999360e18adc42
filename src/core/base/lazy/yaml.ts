// The dist/lazy/yaml.js chunk: the YAML parser (front matter of rules and skills, Continue's config). Load it with lazyChunk.yaml().
export { parse } from 'yaml';
