export { chooseProvider, createWebSearcher } from './searcher';
export { brave, searxng, BRAVE_ENDPOINT, MAX_HITS, type SearchProviderSpec } from './providers';
export { duckduckgo, DUCKDUCKGO_ENDPOINT } from './duckduckgo';
