/** What the portal management screens use of the administration: the admin-only guard, the name rule and dialog. */
export { AdminOnly } from './AdminPage';
export { alphanumericNameError } from './validation';
export { NameDialog } from './NameDialog';
