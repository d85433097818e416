import useSWR from 'swr';

/** What GET /api/config says about links the server's owner configured (SUPPORT_URL, COMMUNITY_URL). */
export interface PublicLinks {
  /** "Report an issue": null when the server has none (the link is hidden). */
  support: string | null;
  /** "Discussions" and "Contribute": null when the server has none (the links are hidden). */
  community: string | null;
}

/** The configured support and community links; none while loading or when the server has none. */
export function usePublicLinks(): { links: PublicLinks; loaded: boolean } {
  const { data } = useSWR<{ links?: Partial<PublicLinks> }>('/api/config', { revalidateOnFocus: false });
  return {
    links: { support: data?.links?.support || null, community: data?.links?.community || null },
    loaded: data !== undefined,
  };
}

/** Whether the server has a Matrix bot account (MATRIX_HOMESERVER_URL, MATRIX_ACCESS_TOKEN): Matrix destinations need it. */
export function useMatrixConfigured(): { configured: boolean; loaded: boolean } {
  const { data } = useSWR<{ matrix?: { configured?: boolean } }>('/api/config', { revalidateOnFocus: false });
  return { configured: data?.matrix?.configured === true, loaded: data !== undefined };
}

/** Whether the server has a Telegram bot (TELEGRAM_BOT_TOKEN): Telegram destinations need it. */
export function useTelegramConfigured(): { configured: boolean; loaded: boolean } {
  const { data } = useSWR<{ telegram?: { configured?: boolean } }>('/api/config', { revalidateOnFocus: false });
  return { configured: data?.telegram?.configured === true, loaded: data !== undefined };
}

/** Whether the server can send mail (SMTP_URL and MAIL_FROM): email destinations need it. */
export function useEmailConfigured(): { configured: boolean; loaded: boolean } {
  const { data } = useSWR<{ email?: { configured?: boolean } }>('/api/config', { revalidateOnFocus: false });
  return { configured: data?.email?.configured === true, loaded: data !== undefined };
}

/** The server's VAPID public key (GET /api/config): a browser subscribes to push with it. */
export function useWebPushKey(): { publicKey: string | null; loaded: boolean } {
  const { data } = useSWR<{ web_push?: { public_key?: string } }>('/api/config', { revalidateOnFocus: false });
  return { publicKey: data?.web_push?.public_key ?? null, loaded: data !== undefined };
}
