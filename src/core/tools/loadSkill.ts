import { errorMessage } from '../base/errors';
import { ToolError, ok, type Tool } from './types';

interface Args {
  name: string;
  file?: string;
}

/**
 * Progressive loading of skills (context/skills): the prompt lists names and descriptions only,
 * this returns a skill's instructions (or another file of its folder) when the model needs them.
 * Its scripts are run like any command, through run_command and the policy.
 */
export const loadSkillTool: Tool<Args> = {
  name: 'load_skill',
  loop: { offeredWhen: (run) => run.skills > 0 },
  description:
    'Read the instructions of a skill listed in the system prompt, before doing the task it covers. ' +
    "file: another file of the skill's folder (a reference the instructions name). Run its scripts with run_command.",
  schema: {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 1 },
      file: { type: 'string', minLength: 1 },
    },
    required: ['name'],
    additionalProperties: false,
  },
  readOnly: true,
  async run(args, ctx) {
    const catalog = ctx.services.skills;
    if (!catalog || catalog.skills.length === 0) throw new ToolError('no skills are available in this workspace');
    const skill = catalog.find(args.name);
    if (!skill) throw new ToolError(`no skill named "${args.name}". Available: ${catalog.skills.map((s) => s.name).join(', ')}`);
    let text: string;
    try {
      text = await skill.read(args.file);
    } catch (err) {
      throw new ToolError(`${skill.name}: ${errorMessage(err)}`);
    }
    if (args.file) return ok(`${skill.location}/${args.file}:\n${text}`, { skill: skill.name, file: args.file });
    const files = skill.files.length
      ? `\nFiles in its folder: ${skill.files.join(', ')} (scripts run with run_command, e.g. \`sh ${quote(skill.location)}/${skill.files.find((f) => f.startsWith('scripts/')) ?? skill.files[0]}\`; other files: load_skill with file)`
      : '';
    return ok(`Skill ${skill.name} (${skill.source}; folder: ${skill.location})${files}\n\n${text}`, { skill: skill.name });
  },
};

function quote(p: string): string {
  return /^[\w@%+=:,./-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`;
}
