import { z } from 'zod'
import description from './descriptions/deepchat_question.md?raw'
import { CORE_SERVER, defineAgentTool } from './defineTool'

const input = z.strictObject({
  header: z.string().trim().max(30).optional().describe('A short title, at most 30 characters'),
  question: z.string().trim().min(1).max(500).describe('The question, one per call'),
  options: z
    .array(
      z.strictObject({
        label: z.string().trim().min(1).max(30),
        description: z.string().trim().max(200).optional()
      })
    )
    .min(1)
    .max(10)
    .describe('1 to 10 answers the user can pick'),
  multiple: z.boolean().default(false).describe('Allow picking several options'),
  custom: z.boolean().default(true).describe('Allow typing a free-text answer')
})

/**
 * Does not wait: it hands the question to the loop as an interaction; the loop pauses and the
 * user's answer becomes this call's result when the run resumes.
 */
export const questionTool = defineAgentTool({
  name: 'deepchat_question',
  group: CORE_SERVER,
  labelKey: 'settingsAgentTools.labels.deepchat_question',
  readOnly: false,
  parallelSafe: false,
  interaction: 'question',
  description,
  input,
  checkPermission: () => null,
  async execute(args) {
    const question = {
      header: args.header || undefined,
      question: args.question,
      options: args.options,
      multiple: args.multiple,
      custom: args.custom
    }
    return {
      ok: true,
      summary: `Asked: ${args.question.slice(0, 120)}`,
      content: 'question_requested: waiting for the user to answer.',
      data: question,
      interaction: { kind: 'question' as const, question }
    }
  }
})
