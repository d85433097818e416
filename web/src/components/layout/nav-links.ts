/** Header navigation (docs/dashboard.md "Screens and routes"). `auth` links are hidden when signed out. */
export interface NavLink {
  href: string;
  /** Key in the `common` namespace. */
  labelKey: 'nav.home' | 'nav.newReminder' | 'nav.servers' | 'nav.installation' | 'nav.contact' | 'nav.account';
  auth: boolean;
}

export const NAV_LINKS: readonly NavLink[] = [
  { href: '/home', labelKey: 'nav.home', auth: true },
  { href: '/reminders/create', labelKey: 'nav.newReminder', auth: true },
  { href: '/servers', labelKey: 'nav.servers', auth: true },
  { href: '/installation', labelKey: 'nav.installation', auth: false },
  { href: '/contact', labelKey: 'nav.contact', auth: false },
  { href: '/account', labelKey: 'nav.account', auth: true },
];
