<?php
// A session provider for the recording: a request carrying the fixed throwaway
// `Authorization: Bearer <token>` (access-token.txt) is the wiki's Admin, as an OAuth 2
// owner-only consumer's token would be; no cookie, nothing persisted, safe against CSRF
// (the REST API then takes writes without a `token` member, as it does with OAuth).
// Requests without the header get MediaWiki's own cookie sessions (anonymous here).

use MediaWiki\Session\ImmutableSessionProviderWithCookie;
use MediaWiki\Session\SessionInfo;
use MediaWiki\Session\UserInfo;

class CapenvBearerSessionProvider extends ImmutableSessionProviderWithCookie {
	public function __construct( array $params = [] ) {
		parent::__construct( $params );
		$this->priority = SessionInfo::MAX_PRIORITY;
	}

	public function provideSessionInfo( WebRequest $request ) {
		global $wgCapenvAccessToken, $wgCapenvAccessUser;
		$header = $request->getHeader( 'Authorization' );
		if ( $header === false || !hash_equals( "Bearer $wgCapenvAccessToken", $header ) ) {
			return null;
		}
		return new SessionInfo( SessionInfo::MAX_PRIORITY, [
			'provider' => $this,
			// One fixed id: the CSRF token secret (settings.php) is the same on every request.
			'id' => str_repeat( 'c', 32 ),
			'userInfo' => UserInfo::newFromName( $wgCapenvAccessUser, true ),
			'persisted' => false,
			'forceUse' => true,
		] );
	}

	public function newSessionInfo( $id = null ) {
		return null;
	}

	public function safeAgainstCsrf() {
		return true;
	}
}
