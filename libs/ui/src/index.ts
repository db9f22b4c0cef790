// The one UI stack of the widget iframe and the operator portal: Preact, these helpers, and tokens.css.
export { Button, type ButtonProps, type ButtonVariant } from './button';
export { Spinner } from './spinner';
export { Badge, type BadgeTone } from './badge';
export { EmptyState } from './empty-state';
export { TextField, SelectField, type TextFieldProps, type SelectFieldProps } from './field';
export { ToastProvider, useToast, type ToastApi, type ToastTone } from './toasts';
export { ConfirmDialog, type ConfirmDialogProps } from './confirm-dialog';
export { CopyButton, copyText } from './copy-button';
export { Field, fieldAria, fieldHintId, fieldErrorId, type FieldAria, type FieldProps } from './form-field';
export { Alert, type AlertProps } from './alert';
