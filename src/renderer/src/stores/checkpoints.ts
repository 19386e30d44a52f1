import { defineStore } from 'pinia'
import {
  checkpointsListTurn,
  checkpointsRestoreBefore,
  checkpointsRevertTurn,
  checkpointsTurnDiffs
} from '@shared/contracts/routes/checkpoints.routes'
import type { RevertResult, TurnCheckpoint, TurnFileDiff } from '@shared/types/checkpoints'
import { useBridge } from '@renderer/api/bridge'

/** A turn: the user's or assistant's message that started or answered it. */
export interface TurnRef {
  sessionId: string
  messageId: string
}

/**
 * The files a turn changed and putting them back (main keeps each undo on the tape). The
 * answers belong to the message that shows them, so nothing is kept here.
 */
export const useCheckpointsStore = defineStore('checkpoints', () => {
  async function listTurn(turn: TurnRef): Promise<TurnCheckpoint> {
    return (await useBridge().call(checkpointsListTurn, turn)).checkpoint
  }

  /** Puts each file the turn changed back as it was before the turn. */
  async function revertTurn(turn: TurnRef): Promise<RevertResult> {
    return (await useBridge().call(checkpointsRevertTurn, turn)).result
  }

  /** Each changed file before the turn's first change and after its last. */
  async function turnDiffs(turn: TurnRef): Promise<TurnFileDiff[]> {
    return (await useBridge().call(checkpointsTurnDiffs, turn)).files
  }

  /** Puts back every file the chat changed from the user message `turn.messageId` on. */
  async function restoreBefore(turn: TurnRef): Promise<RevertResult> {
    return (await useBridge().call(checkpointsRestoreBefore, turn)).result
  }

  return { listTurn, revertTurn, turnDiffs, restoreBefore }
})
