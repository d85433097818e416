import type { ReactNode } from 'react';
import { SWRConfig } from 'swr';
import { Toaster } from '@/components/ui/toaster';
import { TooltipProvider } from '@/components/ui/tooltip';
import { ApiError, fetcher } from '@/lib/api-client';
import { AuthProvider } from '@/lib/auth';

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
        <TooltipProvider delayDuration={200}>
          {children}
          <Toaster />
        </TooltipProvider>
      </AuthProvider>
    </SWRConfig>
  );
}
