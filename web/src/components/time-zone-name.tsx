import type { HTMLAttributes } from 'react';
import { timeZoneLabel } from '@/lib/time-zone-label';

/** A time zone as people read it, "Tokyo (UTC+09:00)", with its IANA id ("Asia/Tokyo") as the tooltip. */
export function TimeZoneName({ zone, at, ...rest }: { zone: string; at?: Date } & HTMLAttributes<HTMLSpanElement>) {
  return (
    <span title={zone} data-zone={zone} {...rest}>
      {timeZoneLabel(zone, at)}
    </span>
  );
}
