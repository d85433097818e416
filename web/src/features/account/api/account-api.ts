export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const DELETE_CONFIRMATION_WORD = 'DELETE';
export const PASSWORD_SUCCESS_MS = 5000;
export const ACCOUNT_DELETED_REDIRECT_MS = 1000;
