// A Notifier for tests: every message kept by level, in order.
import type { Notifier } from '../../../src/core/ports';

export class FakeNotifier implements Notifier {
  readonly infos: string[] = [];
  readonly warnings: string[] = [];
  readonly errors: string[] = [];
  info(message: string): void {
    this.infos.push(message);
  }
  warn(message: string): void {
    this.warnings.push(message);
  }
  error(message: string): void {
    this.errors.push(message);
  }
}
