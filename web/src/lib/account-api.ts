import type {
  ApiTokenCreated,
  CategoryView,
  ChangeEmailInput,
  ChangePasswordInput,
  CreateApiTokenInput,
  DatevSettings,
  DatevSettingsView,
  MerchantRuleView,
  MessageAnswer,
  ProfileAnswer,
} from '@receipts/common';
import { apiFetch, ApiError, apiJson } from './api.js';

/** Reads of the visitor's account; each key is the url the shared query function reads (spec §7). */
export const accountKeys = {
  profile: ['/api/user/profile'] as const,
  quota: ['/api/user/quota'] as const,
  subscription: ['/api/user/subscription'] as const,
  /** `{ rules: MerchantRuleView[] }`: what the user's corrections taught. */
  rules: ['/api/user/rules'] as const,
  /** `{ settings, saved }`: the DATEV export's numbers and accounts (the SKR03 defaults until saved). */
  datevSettings: ['/api/user/datev-settings'] as const,
  /** `{ categories: CategoryView[] }`: the built-in six and the user's own. */
  categories: ['/api/user/categories'] as const,
  /** `{ tokens: ApiTokenView[] }`: the account's personal access tokens, never their text. */
  tokens: ['/api/user/tokens'] as const,
};

const categoryUrl = (name: string) => `/api/user/categories/${encodeURIComponent(name)}`;
export const addCategory = (name: string, datevAccount: string | null) => apiJson<CategoryView>('/api/user/categories', { method: 'POST', json: { name, datevAccount } });
export const updateCategory = (name: string, change: { name?: string; datevAccount?: string | null }) =>
  apiJson<CategoryView>(categoryUrl(name), { method: 'PATCH', json: change });
export const deleteCategory = (name: string) => apiJson<null>(categoryUrl(name), { method: 'DELETE' });

export const updateRule = (id: string, value: string) => apiJson<MerchantRuleView>(`/api/user/rules/${id}`, { method: 'PATCH', json: { value } });
export const deleteRule = (id: string) => apiJson<null>(`/api/user/rules/${id}`, { method: 'DELETE' });
/** A new access token: its text is in this answer only. */
export const createToken = (input: CreateApiTokenInput) => apiJson<ApiTokenCreated>('/api/user/tokens', { method: 'POST', json: input });
export const revokeToken = (id: string) => apiJson<null>(`/api/user/tokens/${id}`, { method: 'DELETE' });
export const saveDatevSettings = (settings: DatevSettings) => apiJson<DatevSettingsView>('/api/user/datev-settings', { method: 'PUT', json: settings });

/** The status of the profile call alone: is there a session to subscribe with? (spec §4). Throws on a network failure. */
export async function profileStatus(): Promise<number> {
  try {
    return (await apiFetch(accountKeys.profile[0])).status;
  } catch (err) {
    if (err instanceof ApiError) return err.status;
    throw err;
  }
}

/** The account page's changes; each asks for the current password again. */
export const changePassword = (input: ChangePasswordInput) => apiJson<MessageAnswer>('/api/user/password', { method: 'POST', json: input });
export const changeEmail = (input: ChangeEmailInput) => apiJson<ProfileAnswer>('/api/user/email', { method: 'POST', json: input });
export const deleteAccount = (password: string) => apiJson<MessageAnswer>('/api/user/account', { method: 'DELETE', json: { password } });
/** A zip of the receipts workbook, the stored originals and the account's details. */
export const ACCOUNT_DATA_URL = '/api/user/data';
