import { Check, Languages, Monitor, Moon, Sun } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { updateLanguage } from '@/lib/api/reminders';
import { useAuth } from '@/lib/auth';
import { changeLanguage, isLanguage, LANGUAGES, type Language, preloadLanguages } from '@/lib/i18n';
import { type Theme, THEMES } from '@/lib/theme';
import { useTheme } from '@/lib/use-theme';
import { cn } from '@/lib/utils';

/** Language names are written in their own language, whatever the UI language. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', fr: 'Français', es: 'Español' };

/*
 * Both menus are non-modal: a modal Radix menu marks the rest of the page aria-hidden while it
 * still holds focusable elements (axe: aria-hidden-focus). Escape, outside clicks and focus
 * handling inside the menu stay the same.
 */
export function LanguageMenu({ className }: { className?: string }) {
  const { t, i18n } = useTranslation('common');
  const { user } = useAuth();
  const current = isLanguage(i18n.language) ? i18n.language : 'en';
  function choose(lng: Language) {
    void changeLanguage(lng);
    // Signed in: the account's mails and bot messages follow the choice. Not worth a toast if it
    // fails: the dashboard has switched, and the next choice sends it again.
    if (user) updateLanguage(lng).catch((err: unknown) => console.warn('Could not save the language on the account', err));
  }
  return (
    <DropdownMenu modal={false} onOpenChange={(open) => open && preloadLanguages()}>
      <DropdownMenuTrigger asChild>
        {/* The accessible name holds the visible code ("Language EN"), as WCAG 2.5.3 asks. */}
        <Button variant="ghost" size="sm" className={cn('gap-1.5 px-2.5', className)} data-testid="language-menu" onPointerEnter={preloadLanguages}>
          <Languages aria-hidden />
          <span className="sr-only">{t('language.label')} </span>
          <span className="text-xs font-semibold uppercase">{current}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>{t('language.label')}</DropdownMenuLabel>
        {LANGUAGES.map((lng) => (
          <DropdownMenuItem key={lng} onSelect={() => choose(lng)} data-testid={`language-${lng}`} lang={lng}>
            <span className="flex-1">{LANGUAGE_NAMES[lng]}</span>
            {lng === current && <Check className="text-primary" />}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

const THEME_ICONS: Record<Theme, typeof Sun> = { light: Sun, dark: Moon, system: Monitor };
const THEME_LABEL_KEYS = { light: 'theme.light', dark: 'theme.dark', system: 'theme.system' } as const;

export function ThemeMenu({ className }: { className?: string }) {
  const { t } = useTranslation('common');
  const { theme, setTheme } = useTheme();
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon-sm" className={className} aria-label={t('theme.label')} data-testid="theme-menu">
          <Sun className="scale-100 rotate-0 transition-all dark:scale-0 dark:-rotate-90" />
          <Moon className="absolute scale-0 rotate-90 transition-all dark:scale-100 dark:rotate-0" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>{t('theme.label')}</DropdownMenuLabel>
        {THEMES.map((value) => {
          const Icon = THEME_ICONS[value];
          return (
            <DropdownMenuItem key={value} onSelect={() => setTheme(value)} data-testid={`theme-${value}`}>
              <Icon />
              <span className="flex-1">{t(THEME_LABEL_KEYS[value])}</span>
              {value === theme && <Check className="text-primary" />}
            </DropdownMenuItem>
          );
        })}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** Both header menus (the header loads them as one lazy chunk). */
export default function PreferenceMenus() {
  return (
    <>
      <LanguageMenu />
      <ThemeMenu />
    </>
  );
}
