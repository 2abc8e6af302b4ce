<?php
// Install WordPress on the empty database named by the copy's wp-config.php (run by start.sh with
// php-cli, never through HTTP): the site, its administrator, pretty permalinks (so /wp-json/ routes),
// and a fixed throwaway Application Password for the administrator (HTTP Basic auth of the REST API).
// Usage: php install.php APP_DIR APPLICATION_PASSWORD
$app = $argv[1];
$application_password = $argv[2];
define('WP_INSTALLING', true);
$_SERVER['HTTP_HOST'] = 'wordpress.capenv.test';
$_SERVER['REQUEST_URI'] = '/';
require $app . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
$result = wp_install('capenv', 'admin', 'admin@capenv.test', false, '', 'capenv-wordpress-throwaway', 'en_US');
update_option('permalink_structure', '/%postname%/');
update_option('timezone_string', 'UTC');
flush_rewrite_rules(true);
$user_id = $result['user_id'];
// Stored as WP_Application_Passwords::create_new_application_password stores one, but with a
// fixed password, so that every fresh start accepts the same Authorization header.
update_user_meta($user_id, '_application_passwords', array(array(
    'uuid'      => '6f1c2d3e-4a5b-4c6d-8e7f-90a1b2c3d4e5',
    'app_id'    => '',
    'name'      => 'capenv',
    'password'  => wp_hash_password($application_password),
    'created'   => 1767254400,
    'last_used' => null,
    'last_ip'   => null,
)));
// What WP_Application_Passwords::create_new_application_password also records: without it no
// Basic auth header is even looked at.
update_option('using_application_passwords', 1);
echo "installed, admin user $user_id\n";

// The seed: a few of every resource type the scenario reads, with fixed dates so that every
// fresh start answers the same.
function capenv_term($name, $taxonomy, $args = array()) {
    $term = wp_insert_term($name, $taxonomy, $args);
    if (is_wp_error($term)) { fwrite(STDERR, $term->get_error_message() . "\n"); exit(1); }
    return $term['term_id'];
}
$news = capenv_term('News', 'category', array('description' => 'Announcements and updates'));
$releases = capenv_term('Releases', 'category', array('parent' => $news, 'description' => 'New versions'));
$guides = capenv_term('Guides', 'category');
$t_php = capenv_term('php', 'post_tag');
$t_rest = capenv_term('rest', 'post_tag', array('description' => 'REST APIs'));
$t_db = capenv_term('databases', 'post_tag');

function capenv_user($login, $role, $first, $last) {
    $id = wp_insert_user(array(
        'user_login' => $login, 'user_pass' => "capenv-$login-throwaway", 'user_email' => "$login@capenv.test",
        'role' => $role, 'first_name' => $first, 'last_name' => $last, 'display_name' => "$first $last",
        'description' => "$first writes here.",
    ));
    if (is_wp_error($id)) { fwrite(STDERR, $id->get_error_message() . "\n"); exit(1); }
    return $id;
}
$editor = capenv_user('editor', 'editor', 'Edith', 'Ward');
$author = capenv_user('alice', 'author', 'Alice', 'Moreau');
$subscriber = capenv_user('bob', 'subscriber', 'Bob', 'Iyer');

function capenv_post($args) {
    $id = wp_insert_post($args + array('post_status' => 'publish', 'post_type' => 'post'), true);
    if (is_wp_error($id)) { fwrite(STDERR, $id->get_error_message() . "\n"); exit(1); }
    return $id;
}
$p1 = capenv_post(array('post_title' => 'Version 2.0 released', 'post_content' => '<p>The second major version is out.</p>',
    'post_excerpt' => 'Version 2.0 is out.', 'post_author' => $editor, 'post_category' => array($releases),
    'tags_input' => array('php', 'rest')));
$p2 = capenv_post(array('post_title' => 'Getting started with the REST API', 'post_content' => '<p>Every resource has a route.</p>',
    'post_author' => $author, 'post_category' => array($guides), 'tags_input' => array('rest')));
$p3 = capenv_post(array('post_title' => 'Tuning the database', 'post_content' => '<p>Indexes matter.</p>',
    'post_author' => $author, 'post_category' => array($guides, $news), 'tags_input' => array('databases')));
$p4 = capenv_post(array('post_title' => 'Roadmap draft', 'post_content' => '<p>Not yet public.</p>',
    'post_author' => $editor, 'post_status' => 'draft', 'post_category' => array($news)));
$p5 = capenv_post(array('post_title' => 'Community meetup', 'post_content' => '<p>See you there.</p>',
    'post_author' => 1, 'post_category' => array($news), 'sticky' => false));
$about = capenv_post(array('post_type' => 'page', 'post_title' => 'About', 'post_content' => '<p>Who we are.</p>',
    'post_author' => 1, 'menu_order' => 1));
$team = capenv_post(array('post_type' => 'page', 'post_title' => 'Team', 'post_content' => '<p>The people.</p>',
    'post_author' => 1, 'post_parent' => $about, 'menu_order' => 2));

function capenv_comment($post, $author, $email, $content, $parent = 0, $user = 0) {
    $id = wp_insert_comment(array('comment_post_ID' => $post, 'comment_author' => $author,
        'comment_author_email' => $email, 'comment_content' => $content, 'comment_parent' => $parent,
        'user_id' => $user, 'comment_approved' => 1, 'comment_author_IP' => '127.0.0.1',
        'comment_agent' => 'capenv-seed'));
    if (!$id) { fwrite(STDERR, "comment failed\n"); exit(1); }
    return $id;
}
$c1 = capenv_comment($p1, 'Carol', 'carol@capenv.test', 'Congratulations on the release!');
$c2 = capenv_comment($p1, 'Edith Ward', 'editor@capenv.test', 'Thank you, Carol.', $c1, $editor);
$c3 = capenv_comment($p2, 'Dan', 'dan@capenv.test', 'Very helpful guide.');

// Fixed dates: every post, comment and user on a fixed day, an hour apart by id.
global $wpdb;
$wpdb->query("UPDATE $wpdb->posts SET post_date = DATE_ADD('2026-01-05 09:00:00', INTERVAL ID HOUR),
    post_date_gmt = DATE_ADD('2026-01-05 09:00:00', INTERVAL ID HOUR),
    post_modified = DATE_ADD('2026-01-05 09:30:00', INTERVAL ID HOUR),
    post_modified_gmt = DATE_ADD('2026-01-05 09:30:00', INTERVAL ID HOUR)");
$wpdb->query("UPDATE $wpdb->comments SET comment_date = DATE_ADD('2026-01-10 12:00:00', INTERVAL comment_ID HOUR),
    comment_date_gmt = DATE_ADD('2026-01-10 12:00:00', INTERVAL comment_ID HOUR)");
$wpdb->query("UPDATE $wpdb->users SET user_registered = DATE_ADD('2026-01-01 08:00:00', INTERVAL ID DAY)");
$wpdb->query($wpdb->prepare("UPDATE $wpdb->options SET option_value = %s WHERE option_name = 'fresh_site'", '0'));
echo "seeded\n";
