// The chat in light, dark and both high-contrast themes, in a real VS Code: the theme switches live
// (the color theme picker), and the view's text, buttons and message box stay readable (WCAG contrast of at
// least 4.5:1 for text), with visible borders in high contrast and the codicon font loaded. A scripted
// run first puts the run's lines in the chat (a failed tool call, the run's end, a code block), and
// every piece of text in the view is measured, not only a few chosen ones.
import assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, focusWorkbench } from './support/workbench';

/** `name`: the label the theme picker shows. */
const THEMES: { name: string; bodyClass: string }[] = [
  { name: 'Light Modern', bodyClass: 'vscode-light' },
  { name: 'Dark Modern', bodyClass: 'vscode-dark' },
  { name: 'Dark High Contrast', bodyClass: 'vscode-high-contrast' },
  { name: 'Light High Contrast', bodyClass: 'vscode-high-contrast-light' },
];

interface Probe {
  bodyClass: string;
  text: [string, string];
  send: [string, string];
  input: [string, string];
  inputBorder: string;
  iconFont: boolean;
  /** Every element with text of its own (syntax-highlight tokens aside): its text, colour and background. */
  texts: { text: string; pair: [string, string] }[];
}

// A string, not a function: tsx's name helper (__name) does not exist inside the page.
const PROBE = `(() => {
  const bg = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = getComputedStyle(e).backgroundColor;
      if (c && c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent') return c;
    }
    return getComputedStyle(document.documentElement).backgroundColor;
  };
  const fg = (el) => (el ? getComputedStyle(el).color : '');
  const model = document.querySelector('.pp-model');
  const send = [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Send') || null;
  const input = document.querySelector('textarea');
  return {
    bodyClass: document.body.className,
    text: [fg(model), bg(model)],
    send: [fg(send), bg(send)],
    input: [fg(input), bg(input)],
    inputBorder: input ? getComputedStyle(input).borderTopColor : '',
    iconFont: document.fonts.check('16px codicon'),
    texts: [...document.querySelectorAll('body *')]
      .filter((e) => !e.closest('[class^="hl-"], [class*=" hl-"]') && e.getClientRects().length > 0)
      .filter((e) => [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
      .map((e) => ({ text: e.textContent.trim().slice(0, 40), pair: [fg(e), bg(e)] })),
  };
})()`;

async function probe(chat: Frame): Promise<Probe> {
  return (await chat.evaluate(PROBE)) as Probe;
}

function luminance(css: string): number {
  const [r, g, b] = (css.match(/[\d.]+/g) ?? [])
    .slice(0, 3)
    .map(Number)
    .map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast([a, b]: [string, string]): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

const settings: Record<string, unknown> = { 'patchpilot.llm.model': 'scripted-model' };
useScriptedModel(
  [
    { reply: { text: 'Reading it first.', toolCalls: [{ name: 'read_file', arguments: { path: 'missing.txt' } }] } },
    { reply: { text: 'The file is missing. A fix would look like this:\n\n```diff\n-const a = 1;\n+const a = 2;\n```' } },
  ],
  settings,
);

e2eTest(
  'themes: the chat is readable in light, dark and both high-contrast themes',
  async (vs) => {
    const run = await sendInChat(vs, 'Read missing.txt');
    await run.getByText('The file is missing').first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await run.getByText('failed', { exact: true }).first().waitFor({ state: 'visible' });
    await run.getByRole('button', { name: 'Stop', disabled: true }).waitFor({ state: 'visible' });
    for (const theme of THEMES) {
      // As a person switches themes: the color theme picker (Ctrl+K Ctrl+T).
      const box = vs.page.locator('.quick-input-widget input.input');
      // On a loaded machine the chord can be lost (or the picker close at once): press it again until the picker stays.
      for (let attempt = 1; ; attempt++) {
        await focusWorkbench(vs.page);
        await vs.page.keyboard.press('Control+K');
        await vs.page.keyboard.press('Control+T');
        const shown = await box.waitFor({ state: 'visible', timeout: 10_000 }).then(
          () => true,
          () => false,
        );
        if (shown) break;
        if (attempt === 5) assert.fail('the color theme picker did not open');
      }
      await box.fill(theme.name);
      await vs.page
        .locator('.quick-input-list .monaco-list-row', { hasText: new RegExp(`^${theme.name}`) })
        .first()
        .click();
      const chat = await vs.webviewFrame('PatchPilot');
      await chat.locator(`body.${theme.bodyClass}`).waitFor({ state: 'attached', timeout: E2E_TIMEOUT });
      await chat.waitForFunction("document.fonts.status === 'loaded'");
      const p = await probe(chat);
      await vs.screenshot(`theme-${theme.bodyClass}`);
      for (const [what, pair] of [
        ['text', p.text],
        ['Send button', p.send],
        ['message box', p.input],
      ] as const) {
        assert.ok(contrast(pair) >= 4.5, `${theme.name}: ${what} contrast ${contrast(pair).toFixed(2)} (${pair.join(' on ')})`);
      }
      assert.ok(
        p.texts.some((t) => t.text.startsWith('failed')) && p.texts.some((t) => /^finished/.test(t.text)),
        `${theme.name}: the run's lines are measured`,
      );
      const low = p.texts.filter((t) => contrast(t.pair) < 4.5).map((t) => `"${t.text}" ${contrast(t.pair).toFixed(2)} (${t.pair.join(' on ')})`);
      assert.deepEqual(low, [], `${theme.name}: text below 4.5:1`);
      if (theme.bodyClass.startsWith('vscode-high-contrast'))
        assert.notEqual(p.inputBorder, 'rgba(0, 0, 0, 0)', `${theme.name}: the message box has a visible border`);
      assert.ok(p.iconFont, `${theme.name}: the codicon font is loaded`);
    }
  },
  { files: { 'a.txt': 'a\n' }, settings },
);
