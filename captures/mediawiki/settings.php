<?php
// The wiki's settings, required by the LocalSettings.php that start.sh writes in its home:
//   $capenvHome (the per-run home: data/ holds the SQLite databases) and $capenvHere (this folder).
// Fixed secrets, a fixed server name and no uploads, so that every start answers alike.
if ( !defined( 'MEDIAWIKI' ) ) {
	exit;
}
require_once "$IP/includes/PlatformSettings.php";

$wgSitename = 'CapenvWiki';
$wgMetaNamespace = 'CapenvWiki';
$wgServer = 'http://mediawiki.capenv.test';
$wgCanonicalServer = 'http://mediawiki.capenv.test';
$wgScriptPath = '';
$wgArticlePath = '/index.php/$1';
$wgResourceBasePath = $wgScriptPath;

$wgDBtype = 'sqlite';
$wgDBserver = '';
$wgDBname = 'wiki';
$wgDBuser = '';
$wgDBpassword = '';
$wgSQLiteDataDir = "$capenvHome/data";
$wgObjectCaches[CACHE_DB] = [
	'class' => SqlBagOStuff::class,
	'loggroup' => 'SQLBagOStuff',
	'server' => [
		'type' => 'sqlite',
		'dbname' => 'wikicache',
		'tablePrefix' => '',
		'variables' => [ 'synchronous' => 'NORMAL' ],
		'dbDirectory' => $wgSQLiteDataDir,
		'trxMode' => 'IMMEDIATE',
		'flags' => 0
	]
];
$wgLocalisationCacheConf['storeServer'] = [
	'type' => 'sqlite',
	'dbname' => "{$wgDBname}_l10n_cache",
	'tablePrefix' => '',
	'variables' => [ 'synchronous' => 'NORMAL' ],
	'dbDirectory' => $wgSQLiteDataDir,
	'trxMode' => 'IMMEDIATE',
	'flags' => 0
];
$wgJobTypeConf['default'] = [
	'class' => 'JobQueueDB',
	'claimTTL' => 3600,
	'server' => [
		'type' => 'sqlite',
		'dbname' => "{$wgDBname}_jobqueue",
		'tablePrefix' => '',
		'variables' => [ 'synchronous' => 'NORMAL' ],
		'dbDirectory' => $wgSQLiteDataDir,
		'trxMode' => 'IMMEDIATE',
		'flags' => 0
	]
];
$wgSharedTables[] = 'actor';
$wgMainCacheType = CACHE_NONE;
$wgSessionCacheType = CACHE_DB;
$wgMemCachedServers = [];
$wgCacheDirectory = "$capenvHome/cache";
$wgUploadDirectory = "$capenvHome/images";
$wgEnableUploads = false;
$wgUseInstantCommons = false;
$wgPingback = false;
$wgEnableEmail = false;
$wgLanguageCode = 'en';
$wgLocaltimezone = 'UTC';
$wgSecretKey = 'capenv-mediawiki-throwaway-secret-key-0000000000000000000000000000';
$wgAuthenticationTokenVersion = '1';
$wgUpgradeKey = 'capenv0000000000';
$wgDefaultSkin = 'vector';
wfLoadSkin( 'Vector' );
// Jobs run within the request that queued them (the built-in server answers one request at a time).
$wgJobRunRate = 1;
$wgRunJobsAsync = false;
$wgShowExceptionDetails = true;
// Language links ([[de:...]]) of the seed pages need their prefixes as interwiki entries.
$wgInterwikiCache = false;

// The throwaway access token of the wiki's administrator (see BearerSessionProvider.php).
$wgCapenvAccessToken = trim( file_get_contents( "$capenvHere/access-token.txt" ) );
$wgCapenvAccessUser = 'Admin';
require_once "$capenvHere/BearerSessionProvider.php";
$wgSessionProviders[CapenvBearerSessionProvider::class] = [
	'class' => CapenvBearerSessionProvider::class,
	'args' => [ [ 'priority' => 50 ] ],
];
// The action API's CSRF token (action=delete) comes from a fixed secret for that session, so a
// token fetched once (meta=tokens) stays valid on every start.
$wgHooks['ApiBeforeMain'][] = static function ( &$main ) {
	$session = $main->getRequest()->getSession();
	if ( $session->getProvider() instanceof CapenvBearerSessionProvider ) {
		$session->set( 'wsTokenSecrets', [ 'default' => 'capenv-mediawiki-throwaway-token-secret' ] );
	}
	return true;
};
