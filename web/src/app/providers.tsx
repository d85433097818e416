import { lazy, type ReactNode, Suspense, useEffect } from 'react';
import { mutate, SWRConfig } from 'swr';
import { ApiError, fetcher } from '@/lib/api-client';
import i18n from '@/lib/i18n';
import { AuthProvider } from '@/lib/auth';

// Toasts only follow user actions, so the toaster (sonner) is not part of the first page load.
const Toaster = lazy(() => import('@/components/ui/toaster'));

/** Answers carry text in the request's language (recurrence_text): fetch them again when it changes. */
function useRefetchOnLanguageChange() {
  useEffect(() => {
    const refetch = () => void mutate(() => true);
    i18n.on('languageChanged', refetch);
    return () => i18n.off('languageChanged', refetch);
  }, []);
}

export function AppProviders({ children }: { children: ReactNode }) {
  useRefetchOnLanguageChange();
  return (
    <SWRConfig
      value={{
        fetcher,
        revalidateOnFocus: true,
        // 4xx answers will not change by retrying.
        shouldRetryOnError: (err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500),
        errorRetryCount: 2,
      }}
    >
      <AuthProvider>
        {children}
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      </AuthProvider>
    </SWRConfig>
  );
}
