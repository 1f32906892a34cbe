/** The one way a page says that something failed: an assertive alert, with a title and a way to try again when given. */
import { Alert, Button } from '@mantine/core';
import type { ReactNode } from 'react';

export function ProblemAlert({ title, children, retry }: { title?: ReactNode; children?: ReactNode; retry?: { label: string; onClick: () => void } }) {
  return (
    <Alert variant="filled" color="red.9" role="alert" title={title}>
      {children}
      {retry && (
        <Button display="block" mt={children ? 'sm' : 0} variant="default" onClick={retry.onClick}>
          {retry.label}
        </Button>
      )}
    </Alert>
  );
}
