import type * as React from 'react';
import { cn } from '@/lib/utils';

export interface CardHeadingProps extends React.ComponentProps<'h2'> {
  /** Heading level that fits the page outline (CardTitle is always an h3). */
  level?: 1 | 2 | 3 | 4;
}

/** A CardTitle look-alike whose heading level is chosen by the page, so headings never skip a level. */
export function CardHeading({ level = 2, className, ...props }: CardHeadingProps) {
  const Tag = `h${level}` as 'h2';
  return <Tag data-slot="card-title" className={cn('leading-tight font-semibold tracking-tight', className)} {...props} />;
}
