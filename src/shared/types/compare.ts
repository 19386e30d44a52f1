import { z } from 'zod'
import { PendingInteraction } from './session'

export const MIN_COMPARE_MODELS = 2
export const MAX_COMPARE_MODELS = 4

const Id = z.string().min(1).max(200)

export const CompareModel = z.object({ providerId: Id, modelId: Id }).strict()
export type CompareModel = z.infer<typeof CompareModel>

export const StartCompareInput = z
  .object({
    sessionId: Id,
    prompt: z.string().trim().min(1, 'The prompt is empty').max(50_000),
    models: z
      .array(CompareModel)
      .min(MIN_COMPARE_MODELS, `Pick ${MIN_COMPARE_MODELS} to ${MAX_COMPARE_MODELS} models`)
      .max(MAX_COMPARE_MODELS, `Pick ${MIN_COMPARE_MODELS} to ${MAX_COMPARE_MODELS} models`)
  })
  .strict()
export type StartCompareInput = z.infer<typeof StartCompareInput>

/** `preparing`: its folder is being made; `waiting`: it asks the user (permission or question). */
export const CompareRunStatus = z.enum(['preparing', 'running', 'waiting', 'completed', 'error', 'cancelled'])
export type CompareRunStatus = z.infer<typeof CompareRunStatus>

export const CompareFileChange = z.object({
  path: z.string(),
  status: z.enum(['added', 'modified', 'deleted']),
  /** Lines; null for a binary file. */
  added: z.number().int().nullable(),
  removed: z.number().int().nullable()
})
export type CompareFileChange = z.infer<typeof CompareFileChange>

export const CompareToolCall = z.object({ id: z.string(), name: z.string(), status: z.string() })
export type CompareToolCall = z.infer<typeof CompareToolCall>

export const CompareRunView = z.object({
  index: z.number().int().min(0),
  providerId: z.string(),
  modelId: z.string(),
  /** The model's display name (the column's and the permission card's label). */
  modelName: z.string(),
  status: CompareRunStatus,
  childSessionId: z.string().nullable(),
  assistantMessageId: z.string().nullable(),
  /** The final answer (text after the last tool call), once completed. */
  answer: z.string().nullable(),
  error: z.string().nullable(),
  toolCalls: z.array(CompareToolCall),
  /** `worktree`: a git worktree of the chat's folder; `copy`: a scratch copy (`folderNote` says why). */
  folder: z.enum(['worktree', 'copy']).nullable(),
  folderNote: z.string().nullable(),
  files: z.array(CompareFileChange),
  /** The run's changes as a unified diff (cut at 200 000 characters; `diffTruncated`). */
  diff: z.string(),
  diffTruncated: z.boolean(),
  usage: z.object({ inputTokens: z.number().int(), outputTokens: z.number().int() }).nullable(),
  /** In US dollars when the model has prices; null otherwise. */
  cost: z.number().nullable(),
  startedAt: z.number().int(),
  endedAt: z.number().int().nullable(),
  /** What this run waits for from the user now. */
  interactions: z.array(PendingInteraction)
})
export type CompareRunView = z.infer<typeof CompareRunView>

/** `open`: runs going or waiting to be kept; `kept`: one run was kept; `discarded`: none was. */
export const CompareStatus = z.enum(['open', 'kept', 'discarded'])
export type CompareStatus = z.infer<typeof CompareStatus>

export const CompareView = z.object({
  compareId: z.string(),
  sessionId: z.string(),
  prompt: z.string(),
  status: CompareStatus,
  keptIndex: z.number().int().nullable(),
  runs: z.array(CompareRunView),
  createdAt: z.number().int(),
  updatedAt: z.number().int()
})
export type CompareView = z.infer<typeof CompareView>
