import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/utils';
import { Button, type ButtonProps } from './button';

export interface CopyButtonProps extends Omit<ButtonProps, 'onClick' | 'children'> {
  /** Text put on the clipboard. */
  value: string;
  /** Visible label; icon-only (with an aria-label) when omitted. */
  label?: string;
  /** Announced (and shown instead of the label) for 2 s after copying. */
  copiedLabel?: string;
}

/** Copies `value` to the clipboard and shows a check mark for 2 s. */
export function CopyButton({ value, label, copiedLabel, className, variant = 'outline', size, ...props }: CopyButtonProps) {
  const { t } = useTranslation('common');
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // Clipboard API blocked (insecure origin): fall back to a hidden textarea.
      const area = document.createElement('textarea');
      area.value = value;
      area.setAttribute('readonly', '');
      area.style.position = 'fixed';
      area.style.opacity = '0';
      document.body.appendChild(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
    setCopied(true);
  }

  const idle = label ?? t('actions.copy');
  const text = copied && copiedLabel ? copiedLabel : idle;
  return (
    <Button
      type="button"
      variant={variant}
      size={size ?? (label ? 'sm' : 'icon-sm')}
      className={cn(className)}
      onClick={() => void copy()}
      aria-label={label ? undefined : idle}
      data-copied={copied || undefined}
      {...props}
    >
      {copied ? <Check className="text-success" /> : <Copy />}
      {label && <span>{text}</span>}
      <span className="sr-only" aria-live="polite">
        {copied ? (copiedLabel ?? '') : ''}
      </span>
    </Button>
  );
}
