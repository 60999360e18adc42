/** Messages between the OffThreadPlanner and the patch worker. */
import type { Plan } from '../plan';
import type { PlanJob } from '../planner';

export interface PlanRequest {
  id: number;
  job: PlanJob;
}

export type PlanResponse = { id: number; ok: true; plan: Plan } | { id: number; ok: false; message: string };
