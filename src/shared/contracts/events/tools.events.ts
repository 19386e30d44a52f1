import { z } from 'zod'
import { defineEvent } from '../define'

export const PlanStepStatus = z.enum(['pending', 'in_progress', 'completed'])
export type PlanStepStatus = z.infer<typeof PlanStepStatus>

export const PlanStep = z.object({ step: z.string(), status: PlanStepStatus })
export type PlanStep = z.infer<typeof PlanStep>

/** The whole plan as the model last sent it (update_plan always sends a full snapshot). */
export const PlanSnapshot = z.object({
  sessionId: z.string(),
  toolCallId: z.string(),
  explanation: z.string().optional(),
  plan: z.array(PlanStep).max(12),
  revision: z.number().int().min(1),
  updatedAt: z.string()
})
export type PlanSnapshot = z.infer<typeof PlanSnapshot>

/** A structured question from `deepchat_question`, waiting for the user. */
export const QuestionRequest = z.object({
  header: z.string().optional(),
  question: z.string(),
  options: z
    .array(z.object({ label: z.string(), description: z.string().optional() }))
    .min(1)
    .max(10),
  multiple: z.boolean(),
  custom: z.boolean()
})
export type QuestionRequest = z.infer<typeof QuestionRequest>

export const toolsPlanUpdated = defineEvent({
  name: 'tools.plan.updated',
  payload: PlanSnapshot
})

/** A background process started by `exec` changed state (started, exited, killed). */
export const toolsProcessChanged = defineEvent({
  name: 'tools.process.changed',
  payload: z.object({
    sessionId: z.string(),
    processId: z.string(),
    command: z.string(),
    status: z.enum(['running', 'done', 'error', 'killed']),
    exitCode: z.number().nullable()
  })
})
