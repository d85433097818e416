import { Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { CardHeading } from '@/components/ui/card-heading';

export function DangerZone({ onDelete, deleting }: { onDelete: () => void; deleting: boolean }) {
  const { t } = useTranslation('details');
  return (
    <Card className="gap-4 border-destructive/40" data-testid="danger-zone">
      <CardHeader>
        <CardHeading className="text-base text-destructive">{t('danger.title')}</CardHeading>
        <CardDescription>{t('danger.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        <Button variant="destructive" onClick={onDelete} disabled={deleting} data-testid="delete-reminder">
          <Trash2 />
          {deleting ? t('actions.deleting') : t('actions.delete')}
        </Button>
      </CardContent>
    </Card>
  );
}
