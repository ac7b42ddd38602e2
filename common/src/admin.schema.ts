import { z } from 'zod';
import { laneSchema } from './lane.js';
import { uploadStatusSchema } from './upload.schema.js';

export const userTypeSchema = z.enum(['admin', 'user']);

/** A row of the admin screen's users (GET /api/admin/users), newest first. */
export const adminUserSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  username: z.string(),
  /** The effective role: an admin candidate is admin only once its address is confirmed. */
  userType: userTypeSchema,
  emailVerified: z.boolean(),
  createdAt: z.string(),
  /** The plan's id, or `free`. */
  plan: z.string(),
  /** The subscription's status, or `free`. */
  status: z.string(),
  uploads: z.number().int(),
  failed: z.number().int(),
  /** Receipts of today's free quota used. */
  usedToday: z.number().int(),
  /** Receipts of the current billing period's quota used. */
  usedThisPeriod: z.number().int(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

/** PATCH /api/admin/users/:id: the account with the role it was given. */
export const adminUserTypeSchema = z.object({ id: z.uuid(), email: z.string(), userType: userTypeSchema });

/** A row of the admin screen's uploads (GET /api/admin/uploads), newest first. */
export const adminUploadSchema = z.object({
  id: z.uuid(),
  filename: z.string(),
  status: uploadStatusSchema,
  error: z.string().nullable(),
  lane: laneSchema,
  attempts: z.number().int(),
  createdAt: z.string(),
  /** Null for an anonymous visitor's upload. */
  ownerEmail: z.string().nullable(),
});
export type AdminUpload = z.infer<typeof adminUploadSchema>;

/** GET /api/admin/queues: jobs waiting in each lane, the queue's jobs by state, and the uploads being read. */
export const queueStatsSchema = z.object({
  lanes: z.record(laneSchema, z.object({ waiting: z.number().int() })),
  jobs: z.record(z.string(), z.number().int()),
  processingUploads: z.number().int(),
});
export type QueueStats = z.infer<typeof queueStatsSchema>;

/** POST /api/admin/uploads/:id/retry: the failed upload is back in its lane. */
export const adminRetrySchema = z.object({ id: z.uuid(), status: z.literal('queued') });
