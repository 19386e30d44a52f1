import { z } from 'zod'
import { TOOL } from '@shared/builtinTools'
import description from './descriptions/update_plan.md?raw'
import { CORE_SERVER, defineAgentTool, ok, type AgentTool } from './defineTool'
import type { PlanSnapshot } from '@shared/contracts/events/tools.events'

export const PLAN_MAX_STEPS = 12

const input = z
  .strictObject({
    explanation: z.string().trim().max(500).optional().describe('Why the plan changed'),
    plan: z
      .array(
        z.strictObject({
          step: z.string().trim().min(1).max(300),
          status: z.enum(['pending', 'in_progress', 'completed'])
        })
      )
      .max(PLAN_MAX_STEPS)
      .describe(`The whole plan, at most ${PLAN_MAX_STEPS} steps`)
  })
  .refine((a) => a.plan.filter((s) => s.status === 'in_progress').length <= 1, {
    message: 'at most one step may be in_progress',
    path: ['plan']
  })

/** Revisions per session; the latest snapshot is what the UI shows. */
export class PlanRevisions {
  private readonly revisions = new Map<string, number>()

  next(sessionId: string): number {
    const revision = (this.revisions.get(sessionId) ?? 0) + 1
    this.revisions.set(sessionId, revision)
    return revision
  }

  clear(sessionId: string): void {
    this.revisions.delete(sessionId)
  }
}

export function createUpdatePlanTool(revisions: PlanRevisions): AgentTool<typeof input> {
  return defineAgentTool({
    name: TOOL.updatePlan,
    group: CORE_SERVER,
    labelKey: 'settingsAgentTools.labels.update_plan',
    readOnly: false,
    parallelSafe: false,
    description,
    input,
    checkPermission: () => null,
    async execute(args, ctx) {
      const snapshot: PlanSnapshot = {
        sessionId: ctx.sessionId,
        toolCallId: ctx.toolCallId,
        explanation: args.explanation || undefined,
        plan: args.plan,
        revision: revisions.next(ctx.sessionId),
        updatedAt: new Date().toISOString()
      }
      ctx.runtime.publishPlan(snapshot)
      const done = args.plan.filter((s) => s.status === 'completed').length
      return ok(
        `Plan updated: ${done}/${args.plan.length} done`,
        `Plan updated (revision ${snapshot.revision}, ${done}/${args.plan.length} steps done).`,
        snapshot
      )
    }
  })
}
