import { lazy, type ReactNode, Suspense } from 'react';
import { SWRConfig } from 'swr';
import { ApiError, fetcher } from '@/lib/api-client';
import { AuthProvider } from '@/lib/auth';

// Toasts only follow user actions, so the toaster (sonner) is not part of the first page load.
const Toaster = lazy(() => import('@/components/ui/toaster'));

export function AppProviders({ children }: { children: ReactNode }) {
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
