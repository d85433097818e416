import useSWR from 'swr';
import type { AddressList } from '../../../../server/routes/email/index.ts';
import type { Static } from '@sinclair/typebox';
import { api } from '@/lib/api-client';

/*
 * The account's email addresses and whether each one confirmed it wants reminders (docs/operations.md
 * "Email"). Shared by the wizard and the details page.
 */
export type EmailAddresses = Static<typeof AddressList>;
export type EmailAddressState = EmailAddresses['addresses'][number]['state'];

export const emailAddressesKey = '/api/email/addresses';
export const useEmailAddresses = (enabled = true) => useSWR<EmailAddresses>(enabled ? emailAddressesKey : null);

/** Mails the confirmation link (again) to an address of the account. */
export const sendEmailConfirmation = (address: string) =>
  api.post<{ address: string; state: EmailAddressState; sent: boolean }>('/api/email/addresses/confirmation', { address });
