/**
 * Every feature's registration module, imported once before the router is built (main.tsx).
 * A feature's `register.ts` calls registerRoute / registerProfileMenuEntry / registerSelector;
 * its screens stay lazily loaded. Add one line per feature.
 */
import './profile/register';
import './domain/register';
import './admin/register';
import './portals-admin/register';
import './portal/register';
import './realtime/register';
import './assets/register';
import './editors/register';
import './translations/register';
import './designer/register';
import './pagesource/register';
import './pagemanager/register';
import './search/register';
import './taskrunner/register';
import './whitelist/register';
import './loadables/register';
import './preview/register';
import './conflicts/register';
import './readiness/register';
export {};
