import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '@/components/placeholder-page';

// Placeholder: replaced by the feature's own screen.
export default function Screen() {
  const { t } = useTranslation('common');
  return <PlaceholderPage title={t('nav.home')} />;
}
