import type { ReactNode } from 'react';
import { EmptyText, ListSkeleton, OptionList } from './picker-options';

interface PickerStepListProps<T> {
  /** The step's items, or null until loaded. */
  items: T[] | null;
  loading: boolean;
  /** Shown when the step has no item to offer. */
  empty: string;
  /** The list's accessible name. */
  label: string;
  testId: string;
  /** The option of one item. */
  children: (item: T) => ReactNode;
}

/** A step's list: a skeleton while it first loads, a note when empty, else the options. */
export function PickerStepList<T>({ items, loading, empty, label, testId, children }: PickerStepListProps<T>) {
  if (loading && !items) return <ListSkeleton />;
  if (items && items.length === 0) return <EmptyText>{empty}</EmptyText>;
  return items ? (
    <OptionList label={label} testId={testId}>
      {items.map(children)}
    </OptionList>
  ) : null;
}
