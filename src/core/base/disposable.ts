/** Something that holds a resource until disposed. Same shape as VS Code's, so host adapters pass through. */
export interface Disposable {
  dispose(): void;
}
