<?php
// Seed the wiki made by install.php (start.sh runs it once, into the template):
//   MW_INSTALL_PATH=... MW_CONFIG_FILE=HOME/LocalSettings.php php seed.php
// Pages in several namespaces (main, Talk, Help, Project, Template, Category), a redirect, a
// page with two revisions, language links (de, fr: interwiki prefixes added here), categories.
// Every revision, the Admin account and the installer's Main Page get fixed timestamps, one
// minute apart from 2026-12-01T09:00:00Z, so that every template answers alike.
require_once getenv( 'MW_INSTALL_PATH' ) . '/maintenance/Maintenance.php';

use MediaWiki\MediaWikiServices;
use Wikimedia\Rdbms\IDatabase;
use Wikimedia\Timestamp\ConvertibleTimestamp;

class CapenvSeed extends Maintenance {
	public function execute() {
		$services = MediaWikiServices::getInstance();
		$dbw = $services->getDBLoadBalancer()->getConnection( DB_PRIMARY );
		foreach ( [ 'de' => 'https://de.wiki.capenv.test/wiki/$1', 'fr' => 'https://fr.wiki.capenv.test/wiki/$1' ] as $prefix => $url ) {
			$dbw->insert( 'interwiki', [ 'iw_prefix' => $prefix, 'iw_url' => $url, 'iw_api' => '',
				'iw_wikiid' => '', 'iw_local' => 0, 'iw_trans' => 0 ], __METHOD__, [ 'IGNORE' ] );
		}
		$services->getInterwikiLookup()->invalidateCache( 'de' );
		$services->getInterwikiLookup()->invalidateCache( 'fr' );
		// the installer's rows first: the Main Page (revision 1) and the Admin account
		$base = (int)ConvertibleTimestamp::convert( TS_UNIX, '20261201090000' );
		$dbw->update( 'revision', [ 'rev_timestamp' => $dbw->timestamp( $base ) ], [ 'rev_id' => 1 ], __METHOD__ );
		$dbw->update( 'user', [ 'user_registration' => $dbw->timestamp( $base ), 'user_touched' => $dbw->timestamp( $base ) ], IDatabase::ALL_ROWS, __METHOD__ );
		$dbw->update( 'recentchanges', [ 'rc_timestamp' => $dbw->timestamp( $base ) ], IDatabase::ALL_ROWS, __METHOD__ );
		$dbw->update( 'logging', [ 'log_timestamp' => $dbw->timestamp( $base ) ], IDatabase::ALL_ROWS, __METHOD__ );
		$dbw->update( 'page', [ 'page_touched' => $dbw->timestamp( $base ), 'page_links_updated' => $dbw->timestamp( $base ) ], IDatabase::ALL_ROWS, __METHOD__ );

		$step = 0;
		ConvertibleTimestamp::setFakeTime( static function () use ( &$step, $base ) {
			return $base + 60 * $step;
		} );
		$user = $services->getUserFactory()->newFromName( 'Admin' );
		$pages = [
			[ 'Getting started', "Welcome to '''CapenvWiki'''. Read the [[Style guide]] before editing, and ask on the [[Talk:Getting started|talk page]].\n\n== First steps ==\n* Create an account\n* Edit a page\n\n[[Category:Guides]]\n[[de:Erste Schritte]]\n[[fr:Premiers pas]]", 'First version of the guide' ],
			[ 'Style guide', "Write short sentences.\n\n[[Category:Guides]]", 'Start the style guide' ],
			[ 'Style guide', "Write short sentences. Use sentence case for headings.\n\n== Titles ==\nTitles use sentence case: ''Getting started'', not ''Getting Started''.\n\n[[Category:Guides]]\n[[de:Stilrichtlinie]]", 'Headings and titles' ],
			[ 'Start here', '#REDIRECT [[Getting started]]', 'Redirect to the guide' ],
			[ 'Talk:Getting started', "== Screenshots? ==\nCould the guide show a screenshot of the editor? ~~~~", 'Ask about screenshots' ],
			[ 'Help:Editing', "To edit a page, open it and choose ''Edit''. See [[Getting started]].\n\n{{Note|Changes are visible immediately.}}\n\n[[Category:Help]]", 'Editing help' ],
			[ 'CapenvWiki:About', "CapenvWiki is a wiki recorded for capenv's tests.", 'About the project' ],
			[ 'Template:Note', "<div class=\"note\">'''Note:''' {{{1}}}</div>", 'A note box' ],
			[ 'Category:Guides', 'Guides for new editors.', 'Guides category' ],
			[ 'Release notes 2026', "== December ==\n* The wiki was set up.\n* The [[Style guide]] was written.", 'Release notes' ],
		];
		foreach ( $pages as [ $name, $text, $summary ] ) {
			$step++;
			$title = Title::newFromText( $name );
			$page = $services->getWikiPageFactory()->newFromTitle( $title );
			$content = ContentHandler::makeContent( $text, $title );
			$status = $page->doUserEditContent( $content, $user, $summary );
			if ( !$status->isOK() ) {
				$this->fatalError( "seeding $name failed: " . $status->getWikiText() );
			}
			$this->output( "seeded $name\n" );
		}
		$step++;
		$services->getJobRunner()->run( [ 'type' => false, 'maxJobs' => 1000, 'maxTime' => 60 ] );
		ConvertibleTimestamp::setFakeTime( false );
	}
}

$maintClass = CapenvSeed::class;
require_once RUN_MAINTENANCE_IF_MAIN;
