import { isAdmin, isEmailVerified, type AdminUpload, type AdminUser, type QueueStats, type UploadStatus } from '@receipts/common';
import type { ReceiptJobs, UploadReadRepository, UploadRepository, UserRepository } from '@receipts/infra';
import { HttpError, notFound } from '../http-error.js';

const PAGE_SIZE = 50;

/** What the admin screen needs: users, failures, queue depth, and a way to retry a failed upload. */
export class AdminService {
  constructor(
    private readonly users: UserRepository,
    private readonly uploads: UploadRepository,
    private readonly uploadReads: UploadReadRepository,
    private readonly jobs: ReceiptJobs,
    private readonly adminEmails: readonly string[],
  ) {}

  /** A page of users with their effective role and whether their address is confirmed. */
  async userPage(search: string | undefined, page: number): Promise<AdminUser[]> {
    const rows = await this.users.adminPage(search, page, PAGE_SIZE);
    return rows.map(({ emailVerifiedAt, createdBeforeVerification, ...row }) => {
      const facts = { ...row, emailVerifiedAt, createdBeforeVerification };
      return {
        ...row,
        createdAt: row.createdAt.toISOString(),
        userType: isAdmin(facts, this.adminEmails) ? 'admin' : 'user',
        emailVerified: isEmailVerified(facts, this.adminEmails),
        plan: row.plan ?? 'free',
        status: row.status ?? 'free',
      };
    });
  }

  async setUserType(id: string, userType: 'admin' | 'user') {
    const user = await this.users.setUserType(id, userType);
    if (!user) throw notFound('User not found');
    return user;
  }

  async uploadPage(status: UploadStatus | undefined, page: number): Promise<AdminUpload[]> {
    const rows = await this.uploadReads.adminPage(status, page, PAGE_SIZE);
    return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
  }

  async queues(): Promise<QueueStats> {
    const [{ lanes, jobs }, processingUploads] = await Promise.all([this.jobs.counts(), this.uploadReads.countByStatus('processing')]);
    return { lanes, jobs, processingUploads };
  }

  /**
   * Puts a failed upload back in its lane. An admin retry is on the house: no quota unit is
   * taken (a second failure returns none either, since the first already did).
   */
  async retry(id: string) {
    const upload = await this.uploads.retry(id);
    if (!upload) throw new HttpError(409, 'NOT_CANCELLABLE', 'Only a failed upload can be retried.');
    await this.jobs.reenqueue({ uploadId: id, lane: upload.lane });
    return { id, status: 'queued' as const };
  }
}
