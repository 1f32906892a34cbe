import { useTranslation } from 'react-i18next';
import classes from './skip-link.module.css';

/** The first focusable element of every page: jumps past the header and navigation to #main. */
export function SkipLink() {
  const { t } = useTranslation();
  return (
    <a className={classes.skip} href="#main">
      {t('common.skipToContent')}
    </a>
  );
}
