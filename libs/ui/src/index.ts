// The one UI stack of the widget iframe and the operator portal: Preact, these helpers, and tokens.css.
export { Button } from './button';
export { Spinner } from './spinner';
export { Badge, type BadgeTone } from './badge';
export { EmptyState } from './empty-state';
export { SelectField, TextField } from './field';
export { ToastProvider, useToast } from './toasts';
export { ConfirmDialog } from './confirm-dialog';
export { CopyButton } from './copy-button';
export { Field } from './form-field';
export { Alert } from './alert';
