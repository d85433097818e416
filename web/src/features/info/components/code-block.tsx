import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export function CodeBlock({ code }: { code: string }) {
  const { t } = useTranslation('common');
  const [copied, setCopied] = useState(false);
  return (
    <div className="group relative rounded-lg border bg-zinc-950 text-zinc-100 shadow-sm dark:bg-black/60">
      {/* Focusable so keyboard users can scroll long lines sideways. */}
      <pre tabIndex={0} className="overflow-x-auto rounded-lg p-4 pr-12 font-mono text-sm leading-relaxed outline-none focus-visible:ring-2 focus-visible:ring-ring">
        <code>{code}</code>
      </pre>
      <button
        type="button"
        onClick={() => {
          void navigator.clipboard?.writeText(code).then(() => {
            setCopied(true);
            setTimeout(() => setCopied(false), 1500);
          });
        }}
        className="absolute top-3 right-3 rounded-md p-1.5 text-zinc-400 transition hover:bg-white/10 hover:text-white"
        aria-label={t('actions.copy')}
      >
        {copied ? <Check className="size-4 text-green-400" /> : <Copy className="size-4" />}
      </button>
    </div>
  );
}
