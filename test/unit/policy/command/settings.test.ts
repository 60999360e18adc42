import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { requireApprovalWhenUnsandboxed } from '../../../../src/core/sandbox/autoMode';
import { parseRulePattern, ruleMatches } from '../../../../src/core/policy/command';
import { literalWord } from '../../../../src/core/policy/command/words';
import { createFixture, type PolicyFixture } from './fixture';

let fx: PolicyFixture;
before(async () => {
  fx = await createFixture();
});
after(() => fx.dispose());

const argv = (s: string) => s.split(' ').map(literalWord);

describe('rule patterns', () => {
  test('allow patterns match the whole argv unless they end in *', () => {
    const exact = parseRulePattern('git status', 'allow', 'user');
    assert.equal(ruleMatches(exact, argv('git status')), true);
    assert.equal(ruleMatches(exact, argv('git status -s')), false);
    const star = parseRulePattern('npm run *', 'allow', 'user');
    assert.equal(ruleMatches(star, argv('npm run build --watch')), true);
    assert.equal(ruleMatches(star, argv('npm run')), true);
    assert.equal(ruleMatches(star, argv('npm test')), false);
  });

  test('deny patterns match a prefix and the base name; allow patterns never match a path', () => {
    const deny = parseRulePattern('npm run deploy', 'deny', 'user');
    assert.equal(ruleMatches(deny, argv('npm run deploy --prod')), true);
    assert.equal(ruleMatches(deny, argv('/usr/local/bin/npm run deploy')), true);
    const allow = parseRulePattern('git status', 'allow', 'user');
    assert.equal(ruleMatches(allow, argv('./git status')), false);
  });

  test('a glob inside one token matches one argument; a dynamic argument never matches a literal', () => {
    const r = parseRulePattern('npm run test:*', 'allow', 'user');
    assert.equal(ruleMatches(r, argv('npm run test:unit')), true);
    assert.equal(ruleMatches(r, argv('npm run build')), false);
    assert.equal(ruleMatches(r, [literalWord('npm'), literalWord('run'), { value: '$X', raw: '$X', dynamic: true, glob: false }]), false);
  });

  test('a rule built in code may name its subcommand separately', () => {
    const r = { ...parseRulePattern('git *', 'allow', 'user'), subcommand: 'status' };
    assert.equal(ruleMatches(r, argv('git status -s')), true);
    assert.equal(ruleMatches(r, argv('git push')), false);
  });

  test('an empty pattern is an error, not a rule that matches everything', () => {
    assert.throws(() => parseRulePattern('   ', 'allow', 'user'), /empty/);
  });
});

describe('settings', () => {
  test('a user allow rule extends the allowlist', async () => {
    const check = await fx.make({ user: { allow: ['git push *'] } });
    assert.equal(check('git push origin main').verdict, 'allow');
    assert.equal(check('git push origin main').rule, 'user-allow:git push *');
  });

  test('deny wins over allow rules and over every approval mode', async () => {
    const check = await fx.make({ user: { allow: ['rm *', 'curl *', 'bash *', 'sudo *'] } });
    assert.equal(check('rm -rf /').verdict, 'deny');
    assert.equal(check('curl x | bash').verdict, 'deny');
    assert.equal(check('sudo ls').verdict, 'deny');
    const d = check('rm -rf ~');
    assert.equal(requireApprovalWhenUnsandboxed(d, false).verdict, 'deny');
    assert.equal(requireApprovalWhenUnsandboxed(d, true).verdict, 'deny');
  });

  test('user deny and ask rules tighten defaults', async () => {
    const check = await fx.make({ user: { deny: ['git log'], ask: ['npm test'] } });
    assert.equal(check('git log --oneline').verdict, 'deny');
    assert.equal(check('git log --oneline').rule, 'user-deny:git log');
    assert.equal(check('npm test').verdict, 'ask');
    assert.equal(check('git status').verdict, 'allow');
  });

  test('a user allow rule that names a flag permits that flag, but never a write outside the workspace', async () => {
    const check = await fx.make({ user: { allow: ['sed -i *'] } });
    assert.equal(check("sed -i 's/a/b/' src/a.ts").verdict, 'allow');
    assert.equal(check("sed -i 's/a/b/' /etc/hosts").verdict, 'deny');
    assert.equal(check("sed -i 's/a/b/' .git/config").verdict, 'ask');
    // The default "sed *" rule does not name -i, so it still asks.
    const plain = await fx.make({});
    assert.equal(plain("sed -i 's/a/b/' src/a.ts").verdict, 'ask');
  });

  test('an untrusted workspace cannot widen the allowlist; its deny rules still apply', async () => {
    const untrusted = await fx.make({ trusted: false, workspace: { allow: ['curl *'], deny: ['git diff'] } });
    assert.equal(untrusted('curl http://127.0.0.1/').verdict, 'ask');
    assert.equal(untrusted('git diff').verdict, 'deny');
    const trusted = await fx.make({ trusted: true, workspace: { allow: ['curl *'] } });
    assert.equal(trusted('curl http://127.0.0.1/').verdict, 'allow');
  });

  test('unusable patterns are reported, not guessed', async () => {
    const { createCommandPolicy } = await import('../../../../src/core/policy/command');
    const p = await createCommandPolicy({ trusted: false, user: { allow: ['', 'ls'] }, workspace: { allow: ['curl *'] } });
    assert.equal(p.settingsErrors.length, 2);
    assert.match(p.settingsErrors.join('\n'), /not trusted/);
  });

  test('the sub-command limit is configurable', async () => {
    const check = await fx.make({ maxSubcommands: 2 });
    assert.equal(check('echo a; echo b').verdict, 'allow');
    assert.equal(check('echo a; echo b; echo c').rule, 'ask:too-many-subcommands');
  });
});

describe('decisions explain themselves', () => {
  test('parts list every sub-command, with rule and reason', () => {
    const d = fx.check('git status && echo ok | wc -l; curl x');
    assert.equal(d.verdict, 'ask');
    const rules = d.parts!.map((p) => p.rule);
    assert.deepEqual(rules, ['allow:git-status', 'allow:echo', 'allow:wc', 'ask:not-allowlisted']);
    assert.match(d.reason, /curl/);
    for (const p of d.parts!) assert.ok(p.reason.length > 10);
  });

  test('wrapped commands appear as their own parts', () => {
    const d = fx.check("timeout 5 bash -c 'git status; ls'");
    assert.equal(d.verdict, 'allow');
    assert.deepEqual(
      d.parts!.map((p) => p.rule),
      ['allow:wrapper-timeout', 'allow:wrapper-bash', 'allow:git-status', 'allow:ls'],
    );
  });
});

describe('auto mode without a sandbox', () => {
  test('commands that run workspace code ask; read-only ones stay allowed', () => {
    for (const c of ['npm test', 'node x.js', 'make test', 'python -m pytest', 'git status && npm run build']) {
      const d = fx.check(c);
      assert.equal(d.verdict, 'allow', c);
      const gated = requireApprovalWhenUnsandboxed(d, false);
      assert.equal(gated.verdict, 'ask', c);
      assert.equal(gated.rule, 'ask:unsandboxed-code');
      assert.equal(requireApprovalWhenUnsandboxed(d, true).verdict, 'allow', c);
    }
    for (const c of ['git status', 'ls -la', 'grep -rn x src']) {
      assert.equal(requireApprovalWhenUnsandboxed(fx.check(c), false).verdict, 'allow', c);
    }
  });
});
