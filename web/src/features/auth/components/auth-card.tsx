import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';

/** The narrow centred card of the password and address pages, with a way back to sign-in. */
export function AuthCard({ title, description, children, back, testId }: { title: string; description?: ReactNode; children: ReactNode; back?: { href: string; label: string }; testId: string }) {
  return (
    <div className="relative">
      <div className="pointer-events-none absolute inset-x-0 top-0 -z-10 h-80 bg-grid [mask-image:linear-gradient(to_bottom,black,transparent)]" />
      <div className="mx-auto max-w-md px-4 py-10 sm:py-16">
        <Card className="gap-4 shadow-lg shadow-black/5" data-testid={testId}>
          <CardHeader>
            {/* The page's only heading: an h1 with the card title's look. */}
            <h1 className="text-2xl leading-tight font-semibold tracking-tight">{title}</h1>
            {description && <CardDescription>{description}</CardDescription>}
          </CardHeader>
          <CardContent className="space-y-5">
            {children}
            {back && (
              <p className="text-center text-sm">
                <Link href={back.href} className="font-medium text-primary underline-offset-4 hover:underline" data-testid="auth-back">
                  {back.label}
                </Link>
              </p>
            )}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
