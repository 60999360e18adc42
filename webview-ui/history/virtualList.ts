/**
 * A virtualised listbox: only the rows in view (plus a few) are in the DOM, each at its offset in
 * a spacer as tall as the whole list, so 5,000 runs or 200 search hits scroll like 20. Rows have a
 * fixed height each (a day header is shorter than a run); rows not loaded yet count as
 * `pendingHeight` at the end, and `onNearEnd` asks for them.
 *
 * Keyboard: the list is one tab stop; Up/Down, Home/End, PageUp/PageDown move the active row
 * (aria-activedescendant), Enter or Space opens it; clicks do the same. Screen readers get
 * role=listbox with options that carry their position in the whole list.
 */

export interface VirtualRow {
  key: string;
  height: number;
  /** Headers are not options: the keyboard skips them. */
  selectable: boolean;
}

export interface VirtualListOptions<T extends VirtualRow> {
  label: string;
  /** The row's content; the list adds the option role, id, position and state. */
  render(item: T): HTMLElement;
  onOpen(item: T): void;
  onNearEnd?(): void;
  /** Shown when there are no rows. */
  empty: string;
}

const OVERSCAN_PX = 400;

export class VirtualList<T extends VirtualRow> {
  readonly root: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly emptyEl: HTMLElement;
  private items: T[] = [];
  private offsets: number[] = [0];
  private pendingHeight = 0;
  private activeKey: string | undefined;
  private frame = 0;
  private rendered = new Map<string, HTMLElement>();
  private readonly id = `vl${Math.random().toString(36).slice(2, 8)}`;
  private positions = new Map<string, number>();
  private selectableCount = 0;

  constructor(private readonly o: VirtualListOptions<T>) {
    this.root = document.createElement('div');
    this.root.className = 'pp-vlist';
    this.root.setAttribute('role', 'listbox');
    this.root.setAttribute('aria-label', o.label);
    this.root.tabIndex = 0;
    this.spacer = document.createElement('div');
    this.spacer.className = 'pp-vlist-spacer';
    this.emptyEl = document.createElement('div');
    this.emptyEl.className = 'pp-vlist-empty';
    this.emptyEl.setAttribute('role', 'presentation');
    this.root.append(this.spacer);
    this.root.addEventListener('scroll', () => this.schedule());
    this.root.addEventListener('keydown', (e) => this.key(e));
    this.root.addEventListener('focus', () => {
      if (this.activeKey === undefined) this.moveTo(this.items.findIndex((i) => i.selectable));
    });
    new ResizeObserver(() => this.schedule()).observe(this.root);
  }

  /** Replaces the rows; keeps the active row and the scroll position when the row is still there. */
  setItems(items: T[], pendingHeight = 0, empty = this.o.empty): void {
    this.items = items;
    this.pendingHeight = pendingHeight;
    this.offsets = new Array(items.length + 1);
    this.offsets[0] = 0;
    this.positions.clear();
    let n = 0;
    for (let i = 0; i < items.length; i++) {
      this.offsets[i + 1] = this.offsets[i]! + items[i]!.height;
      if (items[i]!.selectable) this.positions.set(items[i]!.key, ++n);
    }
    this.selectableCount = n;
    this.spacer.style.height = `${this.offsets[items.length]! + pendingHeight}px`;
    if (this.activeKey !== undefined && !this.positions.has(this.activeKey)) this.activeKey = undefined;
    this.emptyEl.textContent = empty;
    if (items.length === 0) this.root.append(this.emptyEl);
    else this.emptyEl.remove();
    for (const el of this.rendered.values()) el.remove();
    this.rendered.clear();
    this.render();
  }

  get active(): T | undefined {
    return this.items.find((i) => i.key === this.activeKey);
  }

  /** Makes `key` the active row and scrolls it into view (a search hit opened, a restored selection). */
  select(key: string): void {
    const i = this.items.findIndex((x) => x.key === key);
    if (i >= 0) this.moveTo(i);
  }

  scrollToTop(): void {
    this.root.scrollTop = 0;
    this.schedule();
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  /** First row whose bottom is below `y` (binary search over the offsets). */
  private indexAt(y: number): number {
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.offsets[mid + 1]! <= y) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private render(): void {
    const top = this.root.scrollTop;
    const height = this.root.clientHeight || 600;
    const first = this.indexAt(Math.max(0, top - OVERSCAN_PX));
    const last = Math.min(this.items.length - 1, this.indexAt(top + height + OVERSCAN_PX));
    const keep = new Set<string>();
    for (let i = first; i <= last; i++) {
      const item = this.items[i]!;
      keep.add(item.key);
      let el = this.rendered.get(item.key);
      if (!el) {
        el = this.row(item);
        this.rendered.set(item.key, el);
        this.spacer.append(el);
      }
      el.style.top = `${this.offsets[i]}px`;
    }
    for (const [key, el] of this.rendered) {
      if (!keep.has(key)) {
        el.remove();
        this.rendered.delete(key);
      }
    }
    const loadedBottom = this.offsets[this.items.length]!;
    if (this.o.onNearEnd && this.pendingHeight > 0 && top + height + OVERSCAN_PX * 2 >= loadedBottom) this.o.onNearEnd();
  }

  private row(item: T): HTMLElement {
    const content = this.o.render(item);
    content.style.height = `${item.height}px`;
    content.classList.add('pp-vrow');
    if (!item.selectable) {
      content.setAttribute('role', 'presentation');
      return content;
    }
    content.id = this.optionId(item.key);
    content.setAttribute('role', 'option');
    content.setAttribute('aria-posinset', String(this.positions.get(item.key) ?? 0));
    content.setAttribute('aria-setsize', String(this.selectableCount));
    content.setAttribute('aria-selected', String(item.key === this.activeKey));
    content.addEventListener('click', () => {
      this.moveTo(this.items.indexOf(item));
      this.o.onOpen(item);
    });
    return content;
  }

  private optionId(key: string): string {
    return `${this.id}-${key.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  }

  private moveTo(index: number): void {
    const item = this.items[index];
    if (!item?.selectable) return;
    const previous = this.activeKey;
    this.activeKey = item.key;
    if (previous !== undefined) this.rendered.get(previous)?.setAttribute('aria-selected', 'false');
    const top = this.offsets[index]!;
    const bottom = this.offsets[index + 1]!;
    if (top < this.root.scrollTop) this.root.scrollTop = top - (index > 0 && !this.items[index - 1]!.selectable ? this.items[index - 1]!.height : 0);
    else if (bottom > this.root.scrollTop + this.root.clientHeight) this.root.scrollTop = bottom - this.root.clientHeight;
    this.render();
    this.rendered.get(item.key)?.setAttribute('aria-selected', 'true');
    this.root.setAttribute('aria-activedescendant', this.optionId(item.key));
  }

  /** The row `delta` selectable rows away from `from` (or the last one there is). */
  private step(from: number, delta: number): number {
    const dir = Math.sign(delta);
    let last = from;
    let moved = 0;
    for (let i = from + dir; i >= 0 && i < this.items.length && moved < Math.abs(delta); i += dir) {
      if (!this.items[i]!.selectable) continue;
      last = i;
      moved++;
    }
    return last;
  }

  private key(e: KeyboardEvent): void {
    const current = this.items.findIndex((i) => i.key === this.activeKey);
    const page = Math.max(1, Math.floor(this.root.clientHeight / 56) - 1);
    let target: number | undefined;
    switch (e.key) {
      case 'ArrowDown':
        target = current < 0 ? this.items.findIndex((i) => i.selectable) : this.step(current, 1);
        break;
      case 'ArrowUp':
        target = current < 0 ? this.items.findIndex((i) => i.selectable) : this.step(current, -1);
        break;
      case 'PageDown':
        target = this.step(Math.max(0, current), page);
        break;
      case 'PageUp':
        target = this.step(Math.max(0, current), -page);
        break;
      case 'Home':
        target = this.items.findIndex((i) => i.selectable);
        break;
      case 'End':
        target = this.step(this.items.length, -1);
        break;
      case 'Enter':
      case ' ': {
        const item = this.active;
        if (item) {
          e.preventDefault();
          this.o.onOpen(item);
        }
        return;
      }
      default:
        return;
    }
    e.preventDefault();
    if (target !== undefined && target >= 0) this.moveTo(target);
  }
}
